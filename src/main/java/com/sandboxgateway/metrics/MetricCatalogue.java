package com.sandboxgateway.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.DoubleStream;

import com.sandboxgateway.sanitize.SanitizationMetrics;
import com.sandboxgateway.secrets.SecretsMetrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * One place that says what each {@code gateway.*} meter means (the Prometheus {@code # HELP} line), whichever
 * feature registers it, and how the upstream latency histogram is bucketed: a few SLO buckets up to the
 * read timeout, since code runs take minutes and a percentile histogram's 69 buckets per route mostly
 * describe the first 30 seconds.
 */
final class MetricCatalogue implements MeterFilter {

    static final String UPSTREAM_LATENCY = "gateway.upstream.latency";

    static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("gateway.requests", "Requests answered on /v1, by route, team and status"),
            Map.entry(UPSTREAM_LATENCY, "Time until OpenAI's answer began, by route"),
            Map.entry("gateway.policy.refusals", "Errors the gateway answered itself, by error code and team"),
            Map.entry("gateway.ratelimit.decisions", "Rate-limit bucket decisions, by scope (user, team) and outcome"),
            Map.entry("gateway.turns.used", "Executed code-interpreter and shell calls, as settled against turn budgets"),
            Map.entry("gateway.tokens", "Input and output tokens of finished responses"),
            Map.entry("gateway.spend.usd", "Estimated spend in USD (tokens and container sessions)"),
            Map.entry(SanitizationMetrics.FILES, "Uploads and inline files that passed sanitization"),
            Map.entry(SanitizationMetrics.ROWS, "Rows of sanitized CSV, TSV and JSON Lines files"),
            Map.entry(SanitizationMetrics.COLUMNS, "Columns dropped or pseudonymized in sanitized files"),
            Map.entry(SecretsMetrics.FINDINGS, "Credentials, personal data and planted instructions found, by kind and rule"),
            Map.entry("gateway.code.executions", "Audited code blocks, by status"),
            Map.entry("gateway.shell.executions", "Audited hosted shell calls, by status"),
            Map.entry("gateway.code.flags", "Review flags raised on executed code and shell calls, once per call and flag"),
            Map.entry("gateway.audit.writes", "Audit records written, by where they went"),
            Map.entry("gateway.audit.replays", "Spooled audit records replayed into the store"),
            Map.entry("gateway.audit.spool.depth", "Audit records waiting in the spool"));

    private static final double[] SLO_SECONDS = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800};

    private final double[] latencyBucketsNanos;

    /** @param readTimeout the longest an upstream answer may take to begin: the top bucket */
    MetricCatalogue(Duration readTimeout) {
        double top = readTimeout.toNanos();
        this.latencyBucketsNanos = DoubleStream.concat(Arrays.stream(SLO_SECONDS).map(seconds -> seconds * 1e9)
                .filter(nanos -> nanos < top), DoubleStream.of(top)).toArray();
    }

    @Override
    public Meter.Id map(Meter.Id id) {
        String description = DESCRIPTIONS.get(id.getName());
        if (description == null || id.getDescription() != null && !id.getDescription().isBlank()) {
            return id;
        }
        return new Meter.Id(id.getName(), Tags.of(id.getTags()), id.getBaseUnit(), description,
                id.getType());
    }

    @Override
    public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (!id.getName().equals(UPSTREAM_LATENCY)) {
            return config;
        }
        return DistributionStatisticConfig.builder().percentilesHistogram(false).serviceLevelObjectives(latencyBucketsNanos)
                .build().merge(config);
    }
}
