package com.sandboxgateway.deploy;

import java.util.Map;
import java.util.Set;

/**
 * The Prometheus series the gateway exports, with their labels: the names alert rules and dashboards
 * may use. Every scraped series also has {@code instance} and {@code job}.
 */
final class MetricsContract {

    static final Map<String, Set<String>> METRICS = Map.ofEntries(
            Map.entry("gateway_requests_total", Set.of("route", "team", "status")),
            Map.entry("gateway_upstream_latency_seconds_bucket", Set.of("route", "le")),
            Map.entry("gateway_upstream_latency_seconds_sum", Set.of("route")),
            Map.entry("gateway_upstream_latency_seconds_count", Set.of("route")),
            Map.entry("gateway_policy_refusals_total", Set.of("code", "team")),
            Map.entry("gateway_code_executions_total", Set.of("team", "status")),
            Map.entry("gateway_code_flags_total", Set.of("flag", "team")),
            Map.entry("gateway_code_unseen_responses_total", Set.of("team")),
            Map.entry("gateway_turns_used_total", Set.of("team")),
            Map.entry("gateway_tokens_total", Set.of("team", "kind")),
            Map.entry("gateway_spend_usd_total", Set.of("team")),
            Map.entry("gateway_sanitized_files_total", Set.of("team")),
            Map.entry("gateway_sanitized_rows_total", Set.of("team")),
            Map.entry("gateway_sanitized_columns_total", Set.of("team", "action")),
            Map.entry("gateway_findings_total", Set.of("kind", "rule", "team")),
            Map.entry("gateway_audit_writes_total", Set.of("outcome")),
            Map.entry("gateway_audit_spool_depth", Set.of()),
            Map.entry("gateway_audit_replays_total", Set.of()),
            Map.entry("gateway_audit_checkpoints_total", Set.of()),
            Map.entry("gateway_audit_witness_failures_total", Set.of("witness")),
            Map.entry("gateway_ratelimit_decisions_total", Set.of("scope", "outcome")),
            Map.entry("resilience4j_circuitbreaker_state", Set.of("name", "state")),
            Map.entry("jvm_memory_used_bytes", Set.of("area", "id")),
            Map.entry("jvm_memory_max_bytes", Set.of("area", "id")),
            Map.entry("jvm_gc_pause_seconds_sum", Set.of("action", "cause", "gc")),
            Map.entry("jvm_threads_live_threads", Set.of()),
            Map.entry("process_cpu_usage", Set.of()),
            // Prometheus's own series: 0 when a target cannot be scraped.
            Map.entry("up", Set.of()));

    static final Set<String> TARGET_LABELS = Set.of("instance", "job");

    private MetricsContract() {
    }

    static boolean hasLabel(String metric, String label) {
        return TARGET_LABELS.contains(label) || METRICS.getOrDefault(metric, Set.of()).contains(label);
    }
}
