package com.sandboxgateway.state;

import java.util.Locale;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Where rate limits and budgets live and whether they can be reached: with Redis down the gateway
 * refuses requests ({@code on-failure: deny}) or serves them unmetered ({@code allow}), and says which.
 */
@Component("state")
class StateHealthIndicator implements HealthIndicator {

    private final StateProperties properties;
    private final RedisState redis;

    StateHealthIndicator(StateProperties properties, ObjectProvider<RedisState> redis) {
        this.properties = properties;
        this.redis = redis.getIfAvailable();
    }

    @Override
    public Health health() {
        Health.Builder health = redis == null || redis.reachable() ? Health.up()
                : Health.down().withDetail("requests", properties.onFailure() == StateProperties.OnFailure.DENY
                        ? "refused until Redis is back" : "served without rate limits and budgets until Redis is back");
        return health.withDetail("backend", properties.backend().name().toLowerCase(Locale.ROOT))
                .withDetail("onFailure", properties.onFailure().name().toLowerCase(Locale.ROOT))
                .build();
    }
}
