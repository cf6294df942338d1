package com.sandboxgateway.budget;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.policy.TeamPolicies;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateProperties;
import com.sandboxgateway.store.SqlDialect;

import io.micrometer.core.instrument.MeterRegistry;

/** Turn and spend budgets: counters in this JVM or in Redis (after {@code gateway.state.backend}), charges in the database. */
@Configuration(proxyBeanMethods = false)
class BudgetConfiguration {

    @Bean
    Budgets budgets(StateProperties state, ObjectProvider<RedisState> redis, JdbcClient jdbc, SqlDialect dialect, Clock clock,
                    TeamPolicies teams) {
        Counters counters = state.backend() == StateProperties.Backend.REDIS
                ? new Counters.Redis(redis.getObject()) : new Counters.Local();
        return new Budgets(counters, new BudgetStore(jdbc, dialect, clock), teams, clock);
    }

    @Bean
    TurnBudget turnBudget(Budgets budgets, TeamPolicies teams, StateProperties state, Clock clock, MeterRegistry meters) {
        return new TurnBudget(budgets, teams, new StateFailures(state.onFailure()), clock, meters);
    }

    @Bean
    SpendBudget spendBudget(Budgets budgets, TeamPolicies teams, PricingProperties pricing, StateProperties state, Clock clock,
                            MeterRegistry meters) {
        return new SpendBudget(budgets, teams, new Pricing(pricing), new StateFailures(state.onFailure()), clock, meters);
    }
}
