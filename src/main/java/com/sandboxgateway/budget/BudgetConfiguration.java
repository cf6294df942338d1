package com.sandboxgateway.budget;

import java.time.Clock;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.review.ReviewProperties;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateProperties;
import com.sandboxgateway.store.SqlDialect;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Turn and spend budgets and the rate-limit buckets: counters and buckets in this JVM or in Redis (after
 * {@code gateway.state.backend}), charges in the database.
 */
@Configuration(proxyBeanMethods = false)
class BudgetConfiguration {

    @Bean
    Counters counters(StateProperties state, ObjectProvider<RedisState> redis, Clock clock) {
        return state.backend() == StateProperties.Backend.REDIS ? new Counters.Redis(redis.getObject(), clock)
                : new Counters.Local(clock);
    }

    @Bean
    Budgets budgets(Counters counters, JdbcClient jdbc, DataSource dataSource, SqlDialect dialect, Clock clock, TeamPolicies teams) {
        return new Budgets(counters, BudgetStore.of(jdbc, dataSource, dialect, clock), teams, clock);
    }

    @Bean
    UnfetchedResponses unfetchedResponses(Budgets budgets) {
        return new UnfetchedResponses(budgets.store());
    }

    @Bean
    Sessions sessions(Budgets budgets, StateProperties state) {
        return new Sessions(budgets.store(), new StateFailures(state.onFailure()));
    }

    /**
     * Stops runaway sessions when {@code gateway.policy.org.turns.stop-runaway-sessions} says so: those with more failed
     * code blocks in a row than {@code gateway.review.failure-streak}, the blocks the review flags {@code runaway_session}.
     */
    @Bean
    RunawaySessions runawaySessions(SessionFailures failures, PolicyProperties policy, ReviewProperties review) {
        return new RunawaySessions(failures, policy.org().turns().stopRunawaySessions() ? review.failureStreak() + 1 : 0);
    }

    @Bean
    TurnBudget turnBudget(Budgets budgets, TeamPolicies teams, MeterRegistry meters) {
        return new TurnBudget(budgets, teams, meters);
    }

    @Bean
    SpendBudget spendBudget(Budgets budgets, TeamPolicies teams, PricingProperties pricing, Clock clock, MeterRegistry meters) {
        return new SpendBudget(budgets, teams, new Pricing(pricing), clock, meters);
    }
}
