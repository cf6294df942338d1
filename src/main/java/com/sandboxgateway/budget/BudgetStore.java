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
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.SqlDialect;

/**
 * The durable side of turns and spend: one row per charge, written once whichever replica settles it,
 * summed to seed a counter that memory or Redis lost.
 */
final class BudgetStore {

    private static final String TURN_COLUMNS = "charge_id, user_name, team, session_id, charge_day, reserved, turns, created_at, settled_at";
    private static final String SPEND_COLUMNS = "charge_id, team, user_name, charge_day, usd_micros, created_at";
    private static final String BACKGROUND_COLUMNS = "charge_id, user_name, team, created_at, fetched_at";

    private final JdbcClient jdbc;
    private final Clock clock;
    /** Charges are inserted {@code ON CONFLICT DO NOTHING} where the database takes it; see {@link #insertOnce}. */
    private final boolean onConflict;

    BudgetStore(JdbcClient jdbc, SqlDialect dialect, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.onConflict = dialect.onConflict();
    }

    /**
     * Turns charged to one response.
     *
     * @param turns the executed count, or {@code null} while a background response runs (its reservation counts)
     */
    record TurnCharge(String chargeId, String user, String team, String session, LocalDate day, int reserved,
                      Integer turns) {
    }

    /** The session of a response created through the gateway by this user, if there is one. */
    Optional<String> sessionOf(String responseId, String user) {
        return jdbc.sql("SELECT session_id FROM turn_charge WHERE charge_id = :id AND user_name = :user")
                .param("id", responseId).param("user", user).query(String.class).optional();
    }

    Optional<TurnCharge> turnCharge(String chargeId, String user) {
        return jdbc.sql("""
                        SELECT charge_id, user_name, team, session_id, charge_day, reserved, turns FROM turn_charge
                        WHERE charge_id = :id AND user_name = :user""")
                .param("id", chargeId).param("user", user)
                .query((row, n) -> new TurnCharge(row.getString("charge_id"), row.getString("user_name"),
                        row.getString("team"), row.getString("session_id"), row.getObject("charge_day", LocalDate.class),
                        row.getInt("reserved"), (Integer) row.getObject("turns", Integer.class)))
                .optional();
    }

    long sessionTurns(String user, String session) {
        return jdbc.sql("SELECT COALESCE(SUM(COALESCE(turns, reserved)), 0) FROM turn_charge WHERE user_name = :user AND session_id = :session")
                .param("user", user).param("session", session).query(Long.class).single();
    }

    long dayTurns(String user, LocalDate day) {
        return jdbc.sql("""
                        SELECT COALESCE(SUM(COALESCE(turns, reserved)), 0) FROM turn_charge
                        WHERE user_name = :user AND charge_day = :day AND charge_id NOT LIKE 'reset:%'""")
                .param("user", user).param("day", day).query(Long.class).single();
    }

    long daySpendMicros(String team, LocalDate day) {
        return jdbc.sql("SELECT COALESCE(SUM(usd_micros), 0) FROM spend_charge WHERE team = :team AND charge_day = :day")
                .param("team", team).param("day", day).query(Long.class).single();
    }

    /** Records a charge; false when one with the same id already exists. */
    boolean record(TurnCharge charge) {
        return turnRow(charge).insert();
    }

    /** The charge's row, to insert once by id now or in the transaction's last statement. */
    ChargeRow turnRow(TurnCharge charge) {
        OffsetDateTime now = now();
        return new ChargeRow("turn_charge", TURN_COLUMNS, Arrays.asList(charge.chargeId(), charge.user(), charge.team(),
                charge.session(), charge.day(), charge.reserved(), charge.turns(), now, charge.turns() == null ? null : now));
    }

    /** Settles a background response's charge; false when it was settled already (by another request or replica). */
    boolean settle(String chargeId, int turns) {
        boolean settled = jdbc.sql("UPDATE turn_charge SET turns = :turns, settled_at = :now WHERE charge_id = :id AND turns IS NULL")
                .param("turns", turns).param("now", now()).param("id", chargeId).update() == 1;
        forgetUnfetched(chargeId);
        return settled;
    }

    /** No longer keeps the background response to be fetched. */
    void forgetUnfetched(String chargeId) {
        jdbc.sql("DELETE FROM background_response WHERE charge_id = :id").param("id", chargeId).update();
    }

    /** The row that keeps a background response to be fetched until it is settled, to insert with its charge. */
    ChargeRow backgroundRow(TurnCharge charge) {
        return new ChargeRow("background_response", BACKGROUND_COLUMNS,
                Arrays.asList(charge.chargeId(), charge.user(), charge.team(), now(), null));
    }

    /**
     * Takes up to {@code limit} background responses still pending, created more than {@code every} and less than
     * {@code maxAge} ago, that nobody took in the last {@code every}, oldest first: each is the caller's to fetch until
     * {@code every} has passed (so of several replicas one fetches it). Those older than {@code maxAge} are given up.
     */
    List<UnfetchedResponses.Unfetched> takeUnfetched(Duration every, Duration maxAge, int limit) {
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

    /**
     * Takes back a session's turns (an admin reset) with a negative charge, so the history stays; reset
     * charges count for the session only, never for the user's day.
     */
    long resetSession(String user, String team, String session, LocalDate day) {
        long used = sessionTurns(user, session);
        if (used != 0) {
            record(new TurnCharge("reset:" + UUID.randomUUID(), user, team, session, day, 0, Math.toIntExact(-used)));
        }
        return used;
    }

    /** The team of a user's session, if the user has one by that id. */
    Optional<String> teamOfSession(String user, String session) {
        return jdbc.sql("SELECT team FROM turn_charge WHERE user_name = :user AND session_id = :session LIMIT 1")
                .param("user", user).param("session", session).query(String.class).optional();
    }

    /** Takes back a team's spend of the day (an admin reset) with a negative charge. */
    long resetSpend(String team, LocalDate day) {
        long spent = daySpendMicros(team, day);
        if (spent != 0) {
            recordSpend("reset:" + UUID.randomUUID(), team, "admin", day, -spent);
        }
        return spent;
    }

    /** Records a spend charge; false when one with the same id already exists. */
    boolean recordSpend(String chargeId, String team, String user, LocalDate day, long usdMicros) {
        return spendRow(chargeId, team, user, day, usdMicros).insert();
    }

    /** The spend charge's row, to insert once by id now or in the transaction's last statement. */
    ChargeRow spendRow(String chargeId, String team, String user, LocalDate day, long usdMicros) {
        return new ChargeRow("spend_charge", SPEND_COLUMNS, Arrays.asList(chargeId, team, user, day, usdMicros, now()));
    }

    /**
     * A charge row made once by its id (the first column): in a statement of its own, or left to the transaction's
     * {@link CommitTail}.
     *
     * @param values in the columns' order
     */
    final class ChargeRow {

        private final String table;
        private final String columns;
        private final List<Object> values;

        private ChargeRow(String table, String columns, List<Object> values) {
            this.table = table;
            this.columns = columns;
            this.values = values;
        }

        /**
         * Inserts the row unless one with its id exists; false when one does. A duplicate fails no statement where the
         * database takes {@code ON CONFLICT DO NOTHING} (so it cannot fail the group commit the charge is written in);
         * elsewhere (H2 outside its PostgreSQL mode, which fails only the statement) a racing insert is caught.
         */
        boolean insert() {
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
        BooleanSupplier insert(CommitTail tail) {
            return tail.insert(table, columns, values);
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
