package com.sandboxgateway.budget;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.store.SqlDialect;
import com.sandboxgateway.support.MovableClock;

/** The embedded default's charges, kept in the H2 file's own maps. */
class EmbeddedBudgetStoreTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    private static final LocalDate TODAY = LocalDate.parse("2026-12-07");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    /** A fresh in-memory database, migrated, for the tests that need no file. */
    private final JdbcDataSource h2 = inMemory();

    /** Kept in the file: a restart (the database closed and opened again) finds the totals and the pending responses. */
    @Test
    void shouldKeepTheChargesInTheDatabaseFileAcrossARestart(@TempDir Path directory) throws Exception {
        JdbcDataSource file = new JdbcDataSource();
        file.setURL("jdbc:h2:file:" + directory.resolve("gateway") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE");
        Flyway.configure().dataSource(file).load().migrate();
        MovableClock clock = new MovableClock(NOW);
        BudgetStore store;
        try (Connection held = file.getConnection()) {
            store = BudgetStore.of(JdbcClient.create(file), file, SqlDialect.of(file), clock);
            assertThat(store).isInstanceOf(EmbeddedBudgetStore.class);
            BudgetStore.TurnCharge pending = new BudgetStore.TurnCharge("resp_1", "alice", "analytics", "s1", TODAY, 4, null);
            assertThat(store.turnRow(pending).insert()).isTrue();
            assertThat(store.turnRow(pending).insert()).as("once by id").isFalse();
            assertThat(store.backgroundRow(pending).insert()).isTrue();
            store.record(new BudgetStore.TurnCharge("resp_2", "alice", "analytics", "s1", TODAY, 3, 2));
            store.spendRow("response:resp_2", "analytics", "alice", TODAY, 1_500).insert();
        }

        clock.advance(Duration.ofMinutes(1));
        try (Connection held = file.getConnection()) {
            assertThat(store.sessionTurns("alice", "s1")).as("4 reserved, pending, and 2 executed").isEqualTo(6);
            assertThat(store.takeUnfetched(Duration.ZERO, Duration.ofDays(1), 10)).extracting(UnfetchedResponses.Unfetched::responseId)
                    .containsExactly("resp_1");
            assertThat(store.settle("resp_1", 1)).isTrue();
            assertThat(store.settle("resp_1", 1)).as("settled once").isFalse();
            assertThat(store.dayTurns("alice", TODAY)).isEqualTo(3);
            assertThat(store.daySpendMicros("analytics", TODAY)).isEqualTo(1_500);
            assertThat(store.takeUnfetched(Duration.ZERO, Duration.ofDays(1), 10)).as("no longer pending").isEmpty();
        }
    }

    /** Totals by session, user and day, team and day; an admin reset counts for its session only. */
    @Test
    void shouldTotalTheChargesOfEachSessionDayAndTeam() {
        BudgetStore store = BudgetStore.of(JdbcClient.create(h2), h2, SqlDialect.of(h2), CLOCK);
        store.record(new BudgetStore.TurnCharge("resp_1", "alice", "analytics", "s1", TODAY, 2, 1));
        store.record(new BudgetStore.TurnCharge("resp_2", "alice", "analytics", "s2", TODAY, 2, 2));
        store.record(new BudgetStore.TurnCharge("resp_3", "alice", "analytics", "s1", TODAY.minusDays(1), 2, 5));
        store.record(new BudgetStore.TurnCharge("resp_4", "alice1", "analytics", "s1", TODAY, 2, 7));
        store.spendRow("response:resp_1", "analytics", "alice", TODAY, 100).insert();
        store.spendRow("response:resp_9", "analytics1", "bob", TODAY, 900).insert();

        assertThat(store.resetSession("alice", "analytics", "s1", TODAY)).isEqualTo(6);
        assertThat(store.resetSpend("analytics", TODAY)).isEqualTo(100);

        assertThat(store.sessionTurns("alice", "s1")).isZero();
        assertThat(store.sessionTurns("alice", "s2")).isEqualTo(2);
        assertThat(store.dayTurns("alice", TODAY)).as("the reset is not the day's").isEqualTo(3);
        assertThat(store.teamOfSession("alice1", "s1")).contains("analytics");
        assertThat(store.teamOfSession("alice", "s3")).isEmpty();
        assertThat(store.daySpendMicros("analytics", TODAY)).isZero();
        assertThat(store.daySpendMicros("analytics1", TODAY)).isEqualTo(900);
        assertThat(store.sessionOf("resp_2", "alice")).contains("s2");
        assertThat(store.sessionOf("resp_2", "bob")).as("another user's response").isEmpty();
    }

    /** The rows an earlier version wrote to the tables move into the maps on start, as they were, and leave the tables. */
    @Test
    void shouldMoveTheRowsOfTheTablesIntoTheMaps() {
        JdbcClient jdbc = JdbcClient.create(h2);
        Timestamp created = Timestamp.from(NOW.minusSeconds(60));
        jdbc.sql("""
                INSERT INTO turn_charge (charge_id, user_name, team, session_id, charge_day, reserved, turns, created_at)
                VALUES ('resp_1', 'alice', 'analytics', 's1', :day, 3, NULL, :created), ('resp_2', 'alice', 'analytics', 's1', :day, 3, 1, :created)""")
                .param("day", TODAY).param("created", created).update();
        jdbc.sql("INSERT INTO spend_charge VALUES ('response:resp_2', 'analytics', 'alice', :day, 250, :created)")
                .param("day", TODAY).param("created", created).update();
        jdbc.sql("INSERT INTO background_response (charge_id, user_name, team, created_at) VALUES ('resp_1', 'alice', 'analytics', :created)")
                .param("created", created).update();

        BudgetStore store = BudgetStore.of(jdbc, h2, SqlDialect.of(h2), CLOCK);

        for (String table : new String[] {"turn_charge", "spend_charge", "background_response"}) {
            assertThat(jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single()).as(table).isZero();
        }
        assertThat(store.turnCharge("resp_1", "alice")).contains(new BudgetStore.TurnCharge("resp_1", "alice", "analytics", "s1",
                TODAY, 3, null));
        assertThat(store.sessionTurns("alice", "s1")).isEqualTo(4);
        assertThat(store.spendCharge("response:resp_2")).hasValue(250);
        assertThat(store.takeUnfetched(Duration.ofSeconds(30), Duration.ofDays(1), 10))
                .containsExactly(new UnfetchedResponses.Unfetched("resp_1", "alice", "analytics"));
    }

    private static JdbcDataSource inMemory() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).load().migrate();
        return h2;
    }
}
