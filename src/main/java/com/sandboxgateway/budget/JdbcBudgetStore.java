package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.SqlDialect;

/**
 * The charges in the relational store's tables: PostgreSQL in production (and any database but an H2 embedded in this
 * JVM, which keeps them in its file's maps instead: {@link EmbeddedBudgetStore}).
 */
final class JdbcBudgetStore implements BudgetStore {

    private static final String TURN_COLUMNS = "charge_id, user_name, team, session_id, charge_day, reserved, turns, created_at, settled_at";
    private static final String SPEND_COLUMNS = "charge_id, team, user_name, charge_day, usd_micros, created_at";
    private static final String BACKGROUND_COLUMNS = "charge_id, user_name, team, created_at, fetched_at";

    private final JdbcClient jdbc;
    private final Clock clock;
    /** Charges are inserted {@code ON CONFLICT DO NOTHING} where the database takes it; see {@link Row#insert()}. */
    private final boolean onConflict;

    JdbcBudgetStore(JdbcClient jdbc, SqlDialect dialect, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.onConflict = dialect.onConflict();
    }

    @Override
    public Optional<String> sessionOf(String responseId, String user) {
        return jdbc.sql("SELECT session_id FROM turn_charge WHERE charge_id = :id AND user_name = :user")
                .param("id", responseId).param("user", user).query(String.class).optional();
    }

    @Override
    public Optional<TurnCharge> turnCharge(String chargeId, String user) {
        return jdbc.sql("""
                        SELECT charge_id, user_name, team, session_id, charge_day, reserved, turns FROM turn_charge
                        WHERE charge_id = :id AND user_name = :user""")
                .param("id", chargeId).param("user", user)
                .query((row, n) -> new TurnCharge(row.getString("charge_id"), row.getString("user_name"),
                        row.getString("team"), row.getString("session_id"), row.getObject("charge_day", LocalDate.class),
                        row.getInt("reserved"), (Integer) row.getObject("turns", Integer.class)))
                .optional();
    }

    @Override
    public long sessionTurns(String user, String session) {
        return jdbc.sql("SELECT COALESCE(SUM(COALESCE(turns, reserved)), 0) FROM turn_charge WHERE user_name = :user AND session_id = :session")
                .param("user", user).param("session", session).query(Long.class).single();
    }

    @Override
    public long dayTurns(String user, LocalDate day) {
        return jdbc.sql("""
                        SELECT COALESCE(SUM(COALESCE(turns, reserved)), 0) FROM turn_charge
                        WHERE user_name = :user AND charge_day = :day AND charge_id NOT LIKE 'reset:%'""")
                .param("user", user).param("day", day).query(Long.class).single();
    }

    @Override
    public OptionalLong spendCharge(String chargeId) {
        return jdbc.sql("SELECT usd_micros FROM spend_charge WHERE charge_id = :id").param("id", chargeId).query(Long.class)
                .optional().map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    @Override
    public long daySpendMicros(String team, LocalDate day) {
        return jdbc.sql("SELECT COALESCE(SUM(usd_micros), 0) FROM spend_charge WHERE team = :team AND charge_day = :day")
                .param("team", team).param("day", day).query(Long.class).single();
    }

    @Override
    public ChargeRow turnRow(TurnCharge charge) {
        OffsetDateTime now = now();
        return new Row("turn_charge", TURN_COLUMNS, Arrays.asList(charge.chargeId(), charge.user(), charge.team(),
                charge.session(), charge.day(), charge.reserved(), charge.turns(), now, charge.turns() == null ? null : now));
    }

    @Override
    public boolean settle(String chargeId, int turns) {
        boolean settled = jdbc.sql("UPDATE turn_charge SET turns = :turns, settled_at = :now WHERE charge_id = :id AND turns IS NULL")
                .param("turns", turns).param("now", now()).param("id", chargeId).update() == 1;
        forgetUnfetched(chargeId);
        return settled;
    }

    @Override
    public void forgetUnfetched(String chargeId) {
        jdbc.sql("DELETE FROM background_response WHERE charge_id = :id").param("id", chargeId).update();
    }

    @Override
    public ChargeRow backgroundRow(TurnCharge charge) {
        return new Row("background_response", BACKGROUND_COLUMNS,
                Arrays.asList(charge.chargeId(), charge.user(), charge.team(), now(), null));
    }

    @Override
    public List<UnfetchedResponses.Unfetched> takeUnfetched(Duration every, Duration maxAge, int limit) {
        OffsetDateTime now = now();
        OffsetDateTime recent = now.minus(every);
        jdbc.sql("DELETE FROM background_response WHERE created_at < :oldest").param("oldest", now.minus(maxAge)).update();
        List<UnfetchedResponses.Unfetched> due = jdbc.sql("""
                        SELECT charge_id, user_name, team FROM background_response
                        WHERE created_at < :recent AND (fetched_at IS NULL OR fetched_at < :recent)
                        ORDER BY created_at LIMIT :limit""")
                .param("recent", recent).param("limit", limit)
                .query((row, n) -> new UnfetchedResponses.Unfetched(row.getString(1), row.getString(2), row.getString(3)))
                .list();
        List<UnfetchedResponses.Unfetched> taken = new ArrayList<>(due.size());
        for (UnfetchedResponses.Unfetched unfetched : due) {
            // Taken unless another replica took it since the read.
            if (jdbc.sql("""
                            UPDATE background_response SET fetched_at = :now
                            WHERE charge_id = :id AND (fetched_at IS NULL OR fetched_at < :recent)""")
                    .param("now", now).param("id", unfetched.responseId()).param("recent", recent).update() == 1) {
                taken.add(unfetched);
            }
        }
        return taken;
    }

    @Override
    public Optional<String> teamOfSession(String user, String session) {
        return jdbc.sql("SELECT team FROM turn_charge WHERE user_name = :user AND session_id = :session LIMIT 1")
                .param("user", user).param("session", session).query(String.class).optional();
    }

    @Override
    public ChargeRow spendRow(String chargeId, String team, String user, LocalDate day, long usdMicros) {
        return new Row("spend_charge", SPEND_COLUMNS, Arrays.asList(chargeId, team, user, day, usdMicros, now()));
    }

    /**
     * A charge row made once by its id (the first column): in a statement of its own, or left to the transaction's
     * {@link CommitTail}.
     *
     * @param values in the columns' order
     */
    final class Row implements ChargeRow {

        private final String table;
        private final String columns;
        private final List<Object> values;

        private Row(String table, String columns, List<Object> values) {
            this.table = table;
            this.columns = columns;
            this.values = values;
        }

        /**
         * Inserts the row unless one with its id exists; false when one does. A duplicate fails no statement where the
         * database takes {@code ON CONFLICT DO NOTHING} (so it cannot fail the group commit the charge is written in);
         * elsewhere (H2 outside its PostgreSQL mode, which fails only the statement) a racing insert is caught.
         */
        @Override
        public boolean insert() {
            String marks = String.join(", ", Collections.nCopies(values.size(), "?"));
            String into = "INSERT INTO " + table + " (" + columns + ") ";
            JdbcClient.StatementSpec insert = onConflict
                    ? jdbc.sql(into + "VALUES (" + marks + ") ON CONFLICT DO NOTHING").params(values)
                    : jdbc.sql(into + "SELECT " + marks + " WHERE NOT EXISTS (SELECT 1 FROM " + table + " WHERE charge_id = ?)")
                            .params(Stream.concat(values.stream(), Stream.of(values.getFirst())).toList());
            try {
                return insert.update() == 1;
            } catch (DuplicateKeyException concurrentInsert) {
                return false;
            }
        }

        /** Leaves the insert to the transaction's last statement; once that ran, whether the row was new. */
        @Override
        public BooleanSupplier insert(CommitTail tail) {
            return tail.insert(table, columns, values);
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
