package com.sandboxgateway.sanitize;

/**
 * The names of the meters that count what sanitization did, by {@code team}; what each means is said once, in
 * the metric catalogue, and dashboards and alert rules name them, so they change only with those.
 */
public final class SanitizationMetrics {

    /** Uploads and inline files that passed sanitization. */
    public static final String FILES = "gateway.sanitized.files";
    /** Rows of sanitized tables. */
    public static final String ROWS = "gateway.sanitized.rows";
    /** Columns dropped or pseudonymized, by {@code action}. */
    public static final String COLUMNS = "gateway.sanitized.columns";

    private SanitizationMetrics() {
    }
}
