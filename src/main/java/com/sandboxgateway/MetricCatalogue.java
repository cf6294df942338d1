package com.sandboxgateway;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.DoubleStream;

import com.sandboxgateway.audit.AuditMetrics;
import com.sandboxgateway.budget.BudgetMetrics;
import com.sandboxgateway.proxy.ProxyMetrics;
import com.sandboxgateway.ratelimit.RateLimitMetrics;
import com.sandboxgateway.sanitize.SanitizationMetrics;
import com.sandboxgateway.secrets.SecretsMetrics;
import com.sandboxgateway.upstream.UpstreamMetrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * One place that says what each {@code gateway.*} meter means (the Prometheus {@code # HELP} line), whichever
 * feature registers it (each feature names its meters in its own constants, such as {@code BudgetMetrics}; this sits
 * in the top package, beside the pipeline table, because it reads every feature's names and the features use
 * {@code metrics.MeterFamily}), and how the upstream latency histogram is bucketed: a few SLO buckets up to the
 * read timeout, since code runs take minutes and a percentile histogram's 69 buckets per route mostly
 * describe the first 30 seconds.
 */
final class MetricCatalogue implements MeterFilter {

    static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry(ProxyMetrics.REQUESTS, "Requests answered on /v1, by route, team and status"),
            Map.entry(UpstreamMetrics.LATENCY, "Time until OpenAI's answer began, by route"),
            Map.entry(ProxyMetrics.REFUSALS, "Errors the gateway answered itself, by error code and team"),
            Map.entry(RateLimitMetrics.DECISIONS, "Rate-limit bucket decisions, by scope (user, team) and outcome"),
            Map.entry(BudgetMetrics.TURNS_USED, "Executed code-interpreter and shell calls, as settled against turn budgets"),
            Map.entry(BudgetMetrics.TOKENS, "Input and output tokens of finished responses"),
            Map.entry(BudgetMetrics.SPEND_USD, "Estimated spend in USD (tokens and container sessions)"),
            Map.entry(SanitizationMetrics.FILES, "Uploads and inline files that passed sanitization"),
            Map.entry(SanitizationMetrics.ROWS, "Rows of sanitized CSV, TSV and JSON Lines files"),
            Map.entry(SanitizationMetrics.COLUMNS, "Columns dropped or pseudonymized in sanitized files"),
            Map.entry(SecretsMetrics.FINDINGS, "Credentials, personal data and planted instructions found, by kind and rule"),
            Map.entry(AuditMetrics.CODE_EXECUTIONS, "Audited code blocks, by status"),
            Map.entry(AuditMetrics.SHELL_EXECUTIONS, "Audited hosted shell calls, by status"),
            Map.entry(AuditMetrics.UNSEEN_RESPONSES,
                    "Requests that offered code execution, reached OpenAI and got no answer naming their response"),
            Map.entry(AuditMetrics.CODE_FLAGS, "Review flags raised on executed code and shell calls, once per call and flag"),
            Map.entry(AuditMetrics.WRITES, "Audit records written, by where they went"),
            Map.entry(AuditMetrics.REPLAYS, "Spooled audit records replayed into the store"),
            Map.entry(AuditMetrics.SPOOL_DEPTH, "Audit records waiting in the spool"));

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
        if (!id.getName().equals(UpstreamMetrics.LATENCY)) {
            return config;
        }
        return DistributionStatisticConfig.builder().percentilesHistogram(false).serviceLevelObjectives(latencyBucketsNanos)
                .build().merge(config);
    }
}
