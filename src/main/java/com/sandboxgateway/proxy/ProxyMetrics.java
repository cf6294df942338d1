package com.sandboxgateway.proxy;

/**
 * The names of the meters the {@code /v1} controller counts; what each means is said once, in the metric catalogue
 * (or where the meter is built), and dashboards and alert rules name them, so they change only with those.
 */
public final class ProxyMetrics {

    /** Requests answered on {@code /v1}, by {@code route}, {@code team} and {@code status} (and {@code user}, when on). */
    public static final String REQUESTS = "gateway.requests";
    /** Errors the gateway answered itself, by {@code code} and {@code team}. */
    public static final String REFUSALS = "gateway.policy.refusals";

    private ProxyMetrics() {
    }
}
