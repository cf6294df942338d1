package com.sandboxgateway.upstream;

/**
 * The name of the upstream latency histogram, which the controller times and the metric catalogue buckets up to the
 * read timeout; dashboards and alert rules name it, so it changes only with those.
 */
public final class UpstreamMetrics {

    /** Time until OpenAI's answer began, by {@code route}. */
    public static final String LATENCY = "gateway.upstream.latency";

    private UpstreamMetrics() {
    }
}
