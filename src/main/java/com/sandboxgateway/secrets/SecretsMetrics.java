package com.sandboxgateway.secrets;

/**
 * The name of the meter that counts what the scans of prompts and files found; dashboards and alert rules name it,
 * so it changes only with those.
 */
public final class SecretsMetrics {

    /** Credentials, personal data and planted instructions found, by {@code kind}, {@code rule} and {@code team}. */
    public static final String FINDINGS = "gateway.findings";

    private SecretsMetrics() {
    }
}
