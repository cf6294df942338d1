package com.sandboxgateway.state;

import java.util.Locale;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * Where rate limits and budgets live and whether they can be reached: with Redis down the gateway
 * refuses requests ({@code on-failure: deny}) or serves them unmetered ({@code allow}), and says which.
 * The component is part of the readiness group: refusing everything is {@code DOWN}, so Kubernetes stops
 * sending the pod traffic; serving unmetered is {@code DEGRADED}, visible but still ready.
 */
@Component("state")
class StateHealthIndicator implements HealthIndicator {

    /** Ordered between DOWN and UP in {@code management.endpoint.health.status.order}; answered with 200. */
    static final Status DEGRADED = new Status("DEGRADED", "Serving without rate limits and budgets");

    private final StateProperties properties;
    private final RedisState redis;

    StateHealthIndicator(StateProperties properties, ObjectProvider<RedisState> redis) {
        this.properties = properties;
        this.redis = redis.getIfAvailable();
    }

    @Override
    public Health health() {
        boolean deny = properties.onFailure() == StateProperties.OnFailure.DENY;
        Health.Builder health = redis == null || redis.reachable() ? Health.up()
                : deny ? Health.down().withDetail("requests", "refused until Redis is back")
                : Health.status(DEGRADED).withDetail("requests", "served without rate limits and budgets until Redis is back");
        return health.withDetail("backend", properties.backend().name().toLowerCase(Locale.ROOT))
                .withDetail("onFailure", properties.onFailure().name().toLowerCase(Locale.ROOT))
                .build();
    }
}
