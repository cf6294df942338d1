package com.sandboxgateway.sanitize;

import java.util.List;

/**
 * What sanitizing one file did: column names and counts, never values.
 *
 * @param format {@code csv}, {@code tsv}, {@code jsonl} or {@code opaque}
 * @param dropped the (normalized) names of the columns removed
 * @param pseudonymized the (normalized) names of the columns pseudonymized
 * @param rows data rows (or JSON lines) written
 * @param keyId the pseudonymization key's id when a column was pseudonymized, else {@code null}
 */
public record SanitizationReport(String format, List<String> dropped, List<String> pseudonymized, long rows, String keyId) {

    public SanitizationReport {
        dropped = List.copyOf(dropped);
        pseudonymized = List.copyOf(pseudonymized);
    }

    /** The {@code X-Gateway-Sanitized} header value, e.g. {@code dropped=customer_ssn; pseudonymized=customer_id; rows=500000}. */
    public String header() {
        return ascii("format=" + format + "; dropped=" + String.join(",", dropped) + "; pseudonymized="
                + String.join(",", pseudonymized) + "; rows=" + rows);
    }

    private static String ascii(String value) {
        StringBuilder safe = new StringBuilder(value.length());
        value.chars().forEach(c -> safe.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return safe.toString();
    }
}
