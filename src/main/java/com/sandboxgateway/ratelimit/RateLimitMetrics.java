package com.sandboxgateway.ratelimit;

/**
 * The name of the meter that counts the rate limits' decisions; what it means is said once, in the metric catalogue,
 * and dashboards and alert rules name it, so it changes only with those.
 */
public final class RateLimitMetrics {

    /** Rate-limit bucket decisions, by {@code scope} (user, team) and {@code outcome}. */
    public static final String DECISIONS = "gateway.ratelimit.decisions";

    private RateLimitMetrics() {
    }
}
