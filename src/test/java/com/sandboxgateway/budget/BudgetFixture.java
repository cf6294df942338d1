package com.sandboxgateway.budget;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.OnRoutes;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.MovableClock;
import com.sandboxgateway.ratelimit.RateLimits;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateProperties;
import com.sandboxgateway.store.SqlDialect;
import com.sandboxgateway.support.Policies;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The budgets of a plain unit test, wired as {@code BudgetConfiguration} wires them: counters in memory, charges in
 * an in-memory H2 of the test's own (migrated as in service), the policy's settings, a fixed price table and a clock
 * the test moves.
 */
final class BudgetFixture {

    /** USD per million tokens, input and output, of every model. */
    static final BigDecimal TOKEN_PRICE = BigDecimal.TEN;
    /** USD per container session of the default tier. */
    static final BigDecimal CONTAINER_PRICE = new BigDecimal("0.03");

    final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T09:00:00Z"));
    final LocalDate today = LocalDate.parse("2026-12-01");
    final JdbcClient jdbc;
    final TeamPolicies teams;
    final Budgets budgets;
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    /** Refuses what the state cannot check ({@code gateway.state.on-failure=deny}, the default). */
    final StateFailures failures = new StateFailures(StateProperties.OnFailure.DENY);
    final Sessions sessions;
    final TurnBudget turns;
    final SpendBudget spend;
    /** The admission of the routes that cost money and reserve turns in service: creating a response. */
    final Admission admission;

    /**
     * @param database names the test's own H2 database (one per test: a fresh one each time)
     * @param settings {@code gateway.policy} settings, as {@link Policies#of} takes them
     */
    BudgetFixture(String database, String... settings) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + database + "-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).load().migrate();
        jdbc = JdbcClient.create(h2);
        teams = new TeamPolicies(Policies.of(settings));
        budgets = new Budgets(new Counters.Local(clock), BudgetStore.of(jdbc, h2, SqlDialect.of(h2), clock), teams, clock);
        sessions = new Sessions(budgets.store(), failures);
        turns = new TurnBudget(budgets, teams, meters);
        spend = new SpendBudget(budgets, teams, new Pricing(new PricingProperties(List.of(), TOKEN_PRICE, TOKEN_PRICE,
                Map.of("1g", CONTAINER_PRICE))), clock, meters);
        admission = new Admission(budgets, teams, new RateLimits(meters), spend, turns,
                failures, clock, Set.of(Route.RESPONSES_CREATE),
                Set.of(Route.RESPONSES_CREATE));
    }

    /** The chain of the gateway's budget steps and one inspector, which settles what it staged (no transaction). */
    PolicyChain chainOf(ResponseInspector inspector) {
        return new PolicyChain(List.of(OnRoutes.always(sessions), OnRoutes.always(admission)), List.of(OnRoutes.always(inspector)), List.of(), ChainObserver.NONE,
                Exchanges.WITHOUT_TRANSACTIONS);
    }

    /** What is left of alice's turns in the session (and her day's). */
    long turnsLeft(String session) {
        return budgets.counters().remaining(budgets.turnCounters("alice", session, today, teams.of("analytics").limits()));
    }

    /** What is left of the analytics team's spend of the day, in micro-USD. */
    long spendLeft() {
        return budgets.counters().remaining(List.of(budgets.spendCounter("analytics", today)));
    }

    /** The turns recorded against alice's charge id, {@code null} while pending; empty when there is no such charge. */
    List<Integer> turnsCharged(String chargeId) {
        return Charges.turns(budgets, chargeId, "alice");
    }

    /** The spend recorded against a charge id, in micro-USD. */
    List<Long> spendCharged(String chargeId) {
        return Charges.spend(budgets, chargeId);
    }
}
