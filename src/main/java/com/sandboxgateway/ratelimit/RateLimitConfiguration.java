package com.sandboxgateway.ratelimit;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.sandboxgateway.policy.TeamPolicies;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateProperties;

import io.micrometer.core.instrument.MeterRegistry;

/** Rate-limit buckets in this JVM or in Redis, after {@code gateway.state.backend}. */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

    @Bean
    RateLimiter rateLimiter(StateProperties state, ObjectProvider<RedisState> redis) {
        return state.backend() == StateProperties.Backend.REDIS
                ? RateLimiter.redis(redis.getObject(), state.timeout(), state.maxRetries())
                : RateLimiter.local();
    }

    @Bean
    RateLimits rateLimits(RateLimiter limiter, TeamPolicies teams, StateProperties state, MeterRegistry meters) {
        return new RateLimits(limiter, teams, new StateFailures(state.onFailure()), meters);
    }
}
