package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.H2Maps;
import com.sandboxgateway.store.SqlDialect;

/**
 * The durable side of turns and spend: one charge per id, written once whichever replica settles it, summed to seed a
 * counter that memory or Redis lost; and the background responses whose turns are still pending.
 */
interface BudgetStore {

    /** The prefix of an admin reset's charge id. */
    String RESET = "reset:";

    /**
     * The store the gateway's database keeps: an H2 embedded in this JVM (the default) in its file's own maps
     * ({@link EmbeddedBudgetStore}), which first moves in the rows an earlier version left in the tables; any other
     * (PostgreSQL) in tables ({@link JdbcBudgetStore}).
     */
    static BudgetStore of(JdbcClient jdbc, DataSource dataSource, SqlDialect dialect, Clock clock) {
        return H2Maps.of(dataSource, EmbeddedBudgetStore.Maps::open)
                .<BudgetStore>map(maps -> new EmbeddedBudgetStore(maps, clock).movedFrom(jdbc))
                .orElseGet(() -> new JdbcBudgetStore(jdbc, dialect, clock));
    }

    /**
     * Turns charged to one response.
     *
     * @param turns the executed count, or {@code null} while a background response runs (its reservation counts)
     */
    record TurnCharge(String chargeId, String user, String team, String session, LocalDate day, int reserved,
                      Integer turns) {

        /** What it counts against the budgets: the executed turns, or while pending its reservation. */
        long counted() {
            return turns == null ? reserved : turns;
        }
    }

    /** A charge (or a pending background response) made once by its id. */
    interface ChargeRow {

        /** Makes it unless one with its id exists; false when one does. */
        boolean insert();

        /** Leaves it to the transaction's last statement where the store writes in the transaction; once that ran, whether it was new. */
        default BooleanSupplier insert(CommitTail tail) {
            boolean fresh = insert();
            return () -> fresh;
        }

        /** Whether it is made in the database's transaction; false: it takes none, and is durable as it is made. */
        default boolean joinsTransaction() {
            return true;
        }
    }

    /** The session of a response created through the gateway by this user, if there is one. */
    Optional<String> sessionOf(String responseId, String user);

    Optional<TurnCharge> turnCharge(String chargeId, String user);

    /** The turns charged to a session: executed, or reserved where still pending; an admin reset's negative charges too. */
    long sessionTurns(String user, String session);

    /** The turns charged to a user's day, executed or reserved; an admin reset (of a session) does not count. */
    long dayTurns(String user, LocalDate day);

    /** The spend charged against an id, in millionths of a dollar. */
    OptionalLong spendCharge(String chargeId);

    long daySpendMicros(String team, LocalDate day);

    /** The charge, to make once by id now or in the transaction's last statement. */
    ChargeRow turnRow(TurnCharge charge);

    /** Records a charge; false when one with the same id already exists. */
    default boolean record(TurnCharge charge) {
        return turnRow(charge).insert();
    }

    /** Settles a background response's charge; false when it was settled already (by another request or replica). */
    boolean settle(String chargeId, int turns);

    /** No longer keeps the background response to be fetched. */
    void forgetUnfetched(String chargeId);

    /** What keeps a background response to be fetched until it is settled, to make with its charge. */
    ChargeRow backgroundRow(TurnCharge charge);

    /**
     * Takes up to {@code limit} background responses still pending, created more than {@code every} and less than
     * {@code maxAge} ago, that nobody took in the last {@code every}, oldest first: each is the caller's to fetch until
     * {@code every} has passed (so of several replicas one fetches it). Those older than {@code maxAge} are given up.
     */
    List<UnfetchedResponses.Unfetched> takeUnfetched(Duration every, Duration maxAge, int limit);

    /** The team of a user's session, if the user has one by that id. */
    Optional<String> teamOfSession(String user, String session);

    /**
     * Takes back a session's turns (an admin reset) with a negative charge, so the history stays; reset charges count
     * for the session only, never for the user's day.
     */
    default long resetSession(String user, String team, String session, LocalDate day) {
        long used = sessionTurns(user, session);
        if (used != 0) {
            record(new TurnCharge(RESET + UUID.randomUUID(), user, team, session, day, 0, Math.toIntExact(-used)));
        }
        return used;
    }

    /** Takes back a team's spend of the day (an admin reset) with a negative charge. */
    default long resetSpend(String team, LocalDate day) {
        long spent = daySpendMicros(team, day);
        if (spent != 0) {
            spendRow(RESET + UUID.randomUUID(), team, "admin", day, -spent).insert();
        }
        return spent;
    }

    /** The spend charge, to make once by id now or in the transaction's last statement. */
    ChargeRow spendRow(String chargeId, String team, String user, LocalDate day, long usdMicros);
}
