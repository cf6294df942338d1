package com.sandboxgateway.budget;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.policy.Settlement;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.state.StateUnavailableException;

/**
 * The budget counters and their durable charges, and what administrators read and reset: a session's
 * turns and a team's spend of the day. Counter keys of one user (or team) share a Redis hash tag, so a
 * reservation over several of them is one atomic script even on a Redis cluster.
 */
public final class Budgets {

    private static final Duration SESSION_TTL = Duration.ofDays(30);
    private static final Duration DAY_TTL = Duration.ofDays(2);

    private static final Logger log = LoggerFactory.getLogger(Budgets.class);

    private final Counters counters;
    private final BudgetStore store;
    private final TeamPolicies teams;
    private final Clock clock;
    /** One batch for every counter an answer moves (turns and spend): one round trip per answer. */
    private final Settlement.Batch<Counters.Move> moves = this::moveAll;

    Budgets(Counters counters, BudgetStore store, TeamPolicies teams, Clock clock) {
        this.counters = counters;
        this.store = store;
        this.teams = teams;
        this.clock = clock;
    }

    /** @param used turns executed or reserved in the session */
    public record SessionTurns(String user, String session, String team, long used, int limit, long remaining) {
    }

    /** @param spentUsd estimated spend of the day (UTC) */
    public record TeamSpend(String team, LocalDate day, BigDecimal spentUsd, BigDecimal capUsd) {
    }

    /** A session's turns; empty when the user has no such session. */
    public Optional<SessionTurns> sessionTurns(String user, String session) {
        return store.teamOfSession(user, session).map(team -> {
            EffectivePolicy.Limits limits = teams.of(team).limits();
            LocalDate day = LocalDate.now(clock);
            long remaining = counters.remaining(turnCounters(user, session, day, limits));
            return new SessionTurns(user, session, team, store.sessionTurns(user, session), limits.turnsPerSession(), remaining);
        });
    }

    /** Gives a session its turns back (the user's daily budget is not touched). */
    public Optional<SessionTurns> resetSession(String user, String session) {
        return store.teamOfSession(user, session).flatMap(team -> {
            EffectivePolicy.Limits limits = teams.of(team).limits();
            long used = store.resetSession(user, team, session, LocalDate.now(clock));
            counters.add(List.of(sessionCounter(user, session, limits)), -used);
            return sessionTurns(user, session);
        });
    }

    public TeamSpend teamSpend(String team) {
        LocalDate day = LocalDate.now(clock);
        return new TeamSpend(team, day, usd(store.daySpendMicros(team, day)), teams.of(team).limits().maxUsdPerDay());
    }

    /** Clears a team's spend of the day, so its paid requests are served again. */
    public TeamSpend resetTeamSpend(String team) {
        LocalDate day = LocalDate.now(clock);
        long spent = store.resetSpend(team, day);
        counters.add(List.of(spendCounter(team, day)), -spent);
        return teamSpend(team);
    }

    Counters counters() {
        return counters;
    }

    /** Stages a move of counters, made after the settlement's writes together with the answer's other moves. */
    void move(Settlement settlement, List<Counter> moved, long delta) {
        settlement.change(moves, new Counters.Move(moved, delta));
    }

    private void moveAll(List<Counters.Move> staged) {
        try {
            counters.addAll(staged);
        } catch (StateUnavailableException e) {
            log.warn("Budget counters could not be moved now ({}); the charges are recorded, and a counter seeded again "
                    + "counts them", e.getMessage());
        }
    }

    BudgetStore store() {
        return store;
    }

    /** The user's daily turns, and the session's when it exists already. */
    List<Counter> turnCounters(String user, String session, LocalDate day, EffectivePolicy.Limits limits) {
        List<Counter> turns = new ArrayList<>(2);
        turns.add(new Counter("turns:{" + user + "}:d:" + day, limits.turnsPerUserPerDay(), DAY_TTL,
                () -> store.dayTurns(user, day)));
        if (session != null) {
            turns.add(sessionCounter(user, session, limits));
        }
        return turns;
    }

    Counter spendCounter(String team, LocalDate day) {
        return new Counter("spend:{" + team + "}:d:" + day, Pricing.micros(teams.of(team).limits().maxUsdPerDay()), DAY_TTL,
                () -> store.daySpendMicros(team, day));
    }

    private Counter sessionCounter(String user, String session, EffectivePolicy.Limits limits) {
        return new Counter("turns:{" + user + "}:s:" + session, limits.turnsPerSession(), SESSION_TTL,
                () -> store.sessionTurns(user, session));
    }

    private static BigDecimal usd(long micros) {
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros();
    }
}
