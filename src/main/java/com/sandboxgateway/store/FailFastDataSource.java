package com.sandboxgateway.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The connection pool, answering at once while the database cannot be reached. A pool waits its
 * {@code connection-timeout} (Hikari's default: 30 s) for a connection it cannot make, and a request needs several:
 * during an outage every request would hang that long before its {@code 503}, and the audit records it spools would
 * wait as long. So once the pool gave up because it could not connect to the database (its timeout carries the last
 * failure's SQL state: class {@code 08}, the connection refused, dropped or unreachable; class {@code 57}, the database
 * shutting down or starting up), the database counts as unreachable: every caller gets a
 * {@link DatabaseUnreachableException} at once, and one caller at a time tries the pool again every
 * {@code probeInterval}; the first connection it gets makes the database reachable again. A pool that timed out while
 * the database answers marks nothing: every connection busy (no SQL state), or the database refusing more of them for
 * now ({@code 53300}, too many clients).
 */
final class FailFastDataSource extends DelegatingDataSource {

    /** The SQL state classes of a database the pool cannot connect to: connection exception, operator intervention. */
    private static final List<String> UNREACHABLE = List.of("08", "57");

    private final Duration probeInterval;
    private final Clock clock;
    /** Until when callers are answered at once; null while the database is reachable. */
    private final AtomicReference<Instant> unreachableUntil = new AtomicReference<>();
    private final AtomicBoolean probing = new AtomicBoolean();

    FailFastDataSource(DataSource pool, Duration probeInterval, Clock clock) {
        super(pool);
        this.probeInterval = probeInterval;
        this.clock = clock;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return connect(() -> obtainTargetDataSource().getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return connect(() -> obtainTargetDataSource().getConnection(username, password));
    }

    private Connection connect(Connect pool) throws SQLException {
        Instant until = unreachableUntil.get();
        boolean probe = until != null;
        if (probe && (clock.instant().isBefore(until) || !probing.compareAndSet(false, true))) {
            throw new DatabaseUnreachableException();
        }
        try {
            Connection connection = pool.connect();
            if (probe) {
                unreachableUntil.set(null);
            }
            return connection;
        } catch (SQLTransientConnectionException timedOut) {
            String state = timedOut.getSQLState();
            if (state != null && UNREACHABLE.stream().anyMatch(state::startsWith)) {
                unreachableUntil.set(clock.instant().plus(probeInterval));
            }
            throw timedOut;
        } finally {
            if (probe) {
                probing.set(false);
            }
        }
    }

    @FunctionalInterface
    private interface Connect {
        Connection connect() throws SQLException;
    }

    /** What a caller gets at once while the database counts as unreachable. */
    static final class DatabaseUnreachableException extends SQLTransientConnectionException {

        DatabaseUnreachableException() {
            super("The database could not be reached a moment ago; it is tried again shortly", "08001");
        }
    }
}
