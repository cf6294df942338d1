package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import com.sandboxgateway.store.FailFastDataSource.DatabaseUnreachableException;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.support.MovableClock;
import com.sandboxgateway.support.TcpProxy;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * A Hikari pool in front of the local PostgreSQL, reached through a relay the test cuts: while the database cannot be
 * reached, callers are answered at once instead of each waiting out the pool's connection timeout.
 */
class FailFastDataSourceTest {

    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);

    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-06T12:00:00Z"));

    @Test
    void shouldAnswerAtOnceWhileTheDatabaseIsUnreachableAndTryItAgainEachProbeInterval() throws Exception {
        try (TcpProxy database = new TcpProxy(LocalPostgres.PORT); HikariDataSource pool = pool(database.port(), 4)) {
            CountedCalls pooled = new CountedCalls(pool);
            DataSource dataSource = new FailFastDataSource(pooled, PROBE_INTERVAL, clock);
            dataSource.getConnection().close();

            database.cut();
            pool.getHikariPoolMXBean().softEvictConnections();
            assertThatThrownBy(dataSource::getConnection).as("the pool's own timeout")
                    .isInstanceOf(SQLTransientConnectionException.class).isNotInstanceOf(DatabaseUnreachableException.class);
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(dataSource::getConnection).isInstanceOf(DatabaseUnreachableException.class);
            }
            assertThat(pooled.calls()).as("calls that reached the pool").isEqualTo(2);

            clock.advance(PROBE_INTERVAL);
            assertThatThrownBy(dataSource::getConnection).as("a probe, still refused")
                    .isNotInstanceOf(DatabaseUnreachableException.class);
            assertThatThrownBy(dataSource::getConnection).isInstanceOf(DatabaseUnreachableException.class);
            assertThat(pooled.calls()).isEqualTo(3);

            database.start();
            clock.advance(PROBE_INTERVAL);
            dataSource.getConnection().close();
            dataSource.getConnection().close();
            assertThat(pooled.calls()).as("once it answered, every caller reaches the pool again").isEqualTo(5);
        }
    }

    @Test
    void shouldNotTakeABusyPoolForAnUnreachableDatabase() throws Exception {
        try (HikariDataSource pool = pool(LocalPostgres.PORT, 1)) {
            DataSource dataSource = new FailFastDataSource(pool, Duration.ofHours(1), clock);
            try (Connection busy = dataSource.getConnection()) {
                assertThatThrownBy(dataSource::getConnection).isInstanceOf(SQLTransientConnectionException.class)
                        .isNotInstanceOf(DatabaseUnreachableException.class).hasNoCause();
            }
            dataSource.getConnection().close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"08001, connection refused, true", "08006, connection lost, true", "57P03, starting up, true",
                "57P01, shutting down, true", "53300, too many clients, false"})
    void shouldTakeADatabaseForUnreachableOnlyWhenThePoolCouldNotConnect(String state, String failure, boolean unreachable)
            throws Exception {
        AtomicInteger calls = new AtomicInteger();
        DataSource refusing = standIn(() -> {
            calls.incrementAndGet();
            throw new SQLTransientConnectionException("request timed out", state, new SQLException(failure, state));
        });
        DataSource dataSource = new FailFastDataSource(refusing, PROBE_INTERVAL, clock);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(dataSource::getConnection).isInstanceOf(SQLTransientConnectionException.class);
        }
        assertThat(calls).as("calls that reached the pool").hasValue(unreachable ? 1 : 3);
    }

    @Test
    void shouldLetOneCallerAtATimeTryAnUnreachableDatabase() throws Exception {
        CountDownLatch probing = new CountDownLatch(1);
        CountDownLatch refuse = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        DataSource unreachable = standIn(() -> {
            if (calls.incrementAndGet() > 1) {
                probing.countDown();
                awaitUninterruptibly(refuse);
            }
            throw new SQLTransientConnectionException("request timed out", "08001", new SQLException("refused", "08001"));
        });
        DataSource dataSource = new FailFastDataSource(unreachable, PROBE_INTERVAL, clock);
        assertThatThrownBy(dataSource::getConnection).isNotInstanceOf(DatabaseUnreachableException.class);
        clock.advance(PROBE_INTERVAL);

        CompletableFuture<Throwable> probe = CompletableFuture.supplyAsync(() -> catchThrown(dataSource));
        probing.await();
        assertThatThrownBy(dataSource::getConnection).as("while the probe waits").isInstanceOf(DatabaseUnreachableException.class);
        refuse.countDown();
        assertThat(probe.get()).isInstanceOf(SQLTransientConnectionException.class).isNotInstanceOf(DatabaseUnreachableException.class);
        assertThat(calls).hasValue(2);
    }

    private static HikariDataSource pool(int port, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(LocalPostgres.url(port));
        config.setUsername("postgres");
        config.setPassword("");
        config.setMaximumPoolSize(size);
        // No connection opened in the background: one the pool finished opening just after the test evicted the others
        // would be handed out unchecked (it is fresh) though the relay has dropped it.
        config.setMinimumIdle(0);
        config.setConnectionTimeout(250);
        return new HikariDataSource(config);
    }

    /** A stand-in for a pool: each connection asked of it is {@code connect}'s. */
    private static DataSource standIn(Connect connect) {
        return new AbstractDataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                return connect.connect();
            }

            @Override
            public Connection getConnection(String username, String password) throws SQLException {
                return connect.connect();
            }
        };
    }

    @FunctionalInterface
    private interface Connect {
        Connection connect() throws SQLException;
    }

    private static Throwable catchThrown(DataSource dataSource) {
        try {
            dataSource.getConnection().close();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A data source counting the calls that reach it. */
    private static final class CountedCalls extends DelegatingDataSource {

        private final AtomicInteger calls = new AtomicInteger();

        CountedCalls(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            calls.incrementAndGet();
            return super.getConnection();
        }

        int calls() {
            return calls.get();
        }
    }
}
