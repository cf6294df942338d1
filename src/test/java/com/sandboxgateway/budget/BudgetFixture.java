package com.sandboxgateway.budget;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.OnRoutes;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.MovableClock;
import com.sandboxgateway.store.SqlDialect;
import com.sandboxgateway.support.Policies;

/**
 * The budgets of a plain unit test: counters in memory, charges in an in-memory H2 of the test's own (migrated as
 * in service), the policy's settings and a clock the test moves.
 */
final class BudgetFixture {

    final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T09:00:00Z"));
    final LocalDate today = LocalDate.parse("2026-12-01");
    final JdbcClient jdbc;
    final TeamPolicies teams;
    final Budgets budgets;

    /**
     * @param database names the test's own H2 database (one per test: a fresh one each time)
     * @param settings {@code gateway.policy} settings, as {@link Policies#of} takes them
     */
    BudgetFixture(String database, String... settings) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + database + "-" + java.util.UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).load().migrate();
        jdbc = JdbcClient.create(h2);
        teams = new TeamPolicies(Policies.of(settings));
        budgets = new Budgets(new Counters.Local(clock), new BudgetStore(jdbc, SqlDialect.of(h2), clock),
                teams, clock);
    }

    /** A chain of the inspector alone, which settles what it staged as the gateway does (no transaction). */
    static PolicyChain chainOf(ResponseInspector inspector) {
        return new PolicyChain(List.of(), List.of(OnRoutes.always(inspector)), List.of(), ChainObserver.NONE,
                Exchanges.WITHOUT_TRANSACTIONS);
    }

    /** The turns recorded against a charge id, {@code null} while pending; empty when there is no such charge. */
    List<Integer> turnsCharged(String chargeId) {
        return jdbc.sql("SELECT turns FROM turn_charge WHERE charge_id = :id").param("id", chargeId)
                .query((row, n) -> (Integer) row.getObject("turns", Integer.class)).list();
    }

    /** The spend recorded against a charge id, in micro-USD. */
    List<Long> spendCharged(String chargeId) {
        return jdbc.sql("SELECT usd_micros FROM spend_charge WHERE charge_id = :id").param("id", chargeId).query(Long.class).list();
    }
}
