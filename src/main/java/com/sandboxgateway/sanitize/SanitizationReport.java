package com.sandboxgateway.sanitize;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What sanitizing one file did: column names and counts, never values.
 *
 * @param format the format detected from the content: {@code csv}, {@code tsv}, {@code jsonl}, {@code json},
 *        {@code xlsx}, {@code gzip}, {@code zip}, {@code text} or {@code opaque} ({@code sheet} for a part of a workbook)
 * @param dropped the (normalized) names of the columns removed, in any part
 * @param pseudonymized the (normalized) names of the columns pseudonymized, in any part
 * @param rows data rows (or JSON objects) written, in all parts
 * @param keyId the pseudonymization key's id when a column was pseudonymized, else {@code null}
 * @param parts per sheet of a workbook, per entry of an archive, what was done (empty for other files)
 */
public record SanitizationReport(String format, List<String> dropped, List<String> pseudonymized, long rows, String keyId,
                                 List<Part> parts) {

    /** At most this many parts are named in the header; the audit record has them all. */
    static final int PARTS_IN_HEADER = 20;

    public SanitizationReport {
        dropped = List.copyOf(dropped);
        pseudonymized = List.copyOf(pseudonymized);
        parts = List.copyOf(parts);
    }

    public SanitizationReport(String format, List<String> dropped, List<String> pseudonymized, long rows, String keyId) {
        this(format, dropped, pseudonymized, rows, keyId, List.of());
    }

    /**
     * One sheet of a workbook or one entry of an archive.
     *
     * @param kind {@code sheet} or {@code entry}
     * @param notes what else is worth knowing, e.g. {@code hidden}, {@code formulas-removed=3}
     */
    public record Part(String kind, String name, SanitizationReport report, List<String> notes) {
        public Part {
            notes = List.copyOf(notes);
        }
    }

    /** The report of a workbook or archive: its parts' columns and rows together. */
    static SanitizationReport combined(String format, List<Part> parts) {
        Set<String> dropped = new LinkedHashSet<>();
        Set<String> pseudonymized = new LinkedHashSet<>();
        long rows = 0;
        for (Part part : parts) {
            dropped.addAll(part.report().dropped());
            pseudonymized.addAll(part.report().pseudonymized());
            rows += part.report().rows();
        }
        String keyId = parts.stream().map(part -> part.report().keyId()).filter(Objects::nonNull).findFirst().orElse(null);
        return new SanitizationReport(format, List.copyOf(dropped), List.copyOf(pseudonymized), rows, keyId, parts);
    }

    /** Whether the file went on byte for byte. */
    boolean passedUnchanged() {
        return "opaque".equals(format);
    }

    /**
     * The {@code X-Gateway-Sanitized} header value, e.g. {@code format=csv; dropped=customer_ssn; pseudonymized=customer_id;
     * rows=500000}; a workbook adds {@code sheets=Orders[rows=2 dropped=customer_ssn],Old[rows=1 hidden]}, an archive
     * {@code entries=orders.csv[csv rows=2 dropped=customer_ssn]}.
     */
    public String header() {
        StringBuilder header = new StringBuilder("format=").append(format).append("; dropped=").append(String.join(",", dropped))
                .append("; pseudonymized=").append(String.join(",", pseudonymized)).append("; rows=").append(rows);
        if (!parts.isEmpty()) {
            header.append("; ").append("sheet".equals(parts.getFirst().kind()) ? "sheets" : "entries").append('=').append(parts.stream().limit(PARTS_IN_HEADER)
                    .map(SanitizationReport::describe).collect(Collectors.joining(",")));
            if (parts.size() > PARTS_IN_HEADER) {
                header.append(",+").append(parts.size() - PARTS_IN_HEADER).append(" more");
            }
        }
        return ascii(header.toString());
    }

    private static String describe(Part part) {
        SanitizationReport report = part.report();
        StringBuilder text = new StringBuilder(part.name().replaceAll("[\\[\\],;=]", "_")).append('[');
        if (!"sheet".equals(report.format())) {
            text.append(report.format()).append(' ');
        }
        text.append("rows=").append(report.rows());
        if (!report.dropped().isEmpty()) {
            text.append(" dropped=").append(String.join(",", report.dropped()));
        }
        if (!report.pseudonymized().isEmpty()) {
            text.append(" pseudonymized=").append(String.join(",", report.pseudonymized()));
        }
        part.notes().forEach(note -> text.append(' ').append(note));
        return text.append(']').toString();
    }

    private static String ascii(String value) {
        StringBuilder safe = new StringBuilder(value.length());
        value.chars().forEach(c -> safe.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return safe.toString();
    }
}
