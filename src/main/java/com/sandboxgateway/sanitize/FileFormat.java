package com.sandboxgateway.sanitize;

import java.util.Locale;

/** The data formats the gateway rewrites, and the opaque files it passes unchanged. */
enum FileFormat {
    CSV, TSV, JSONL, OPAQUE;

    /** The format a file name's extension announces, or {@code null} when the policy accepts none. */
    static FileFormat byName(String filename, java.util.Collection<String> opaqueExtensions) {
        if (filename == null) {
            return null;
        }
        int dot = filename.lastIndexOf('.');
        String extension = dot < 0 ? "" : filename.substring(dot + 1).toLowerCase(Locale.ROOT);
        return switch (extension) {
            case "csv" -> CSV;
            case "tsv" -> TSV;
            case "jsonl", "ndjson" -> JSONL;
            default -> opaqueExtensions.stream().anyMatch(extension::equalsIgnoreCase) && !extension.isEmpty() ? OPAQUE : null;
        };
    }

    /** Opaque files that are free text, scanned for credentials and personal data as they pass. */
    static boolean isText(String filename) {
        String name = filename.toLowerCase(Locale.ROOT);
        return name.endsWith(".txt") || name.endsWith(".md") || name.endsWith(".log");
    }

    /**
     * Why the first bytes of a file contradict its announced format, or {@code null} when they fit.
     * Only the obvious cases: binary content in a text format, JSON where CSV was announced and the
     * reverse.
     */
    String contradiction(byte[] head, int length) {
        if (this == OPAQUE) {
            return null;
        }
        boolean bom = length >= 3 && (head[0] & 0xff) == 0xEF && (head[1] & 0xff) == 0xBB && (head[2] & 0xff) == 0xBF;
        int first = -1;
        for (int i = bom ? 3 : 0; i < length; i++) {
            if (head[i] == 0) {
                return "it holds binary data, not " + name().toLowerCase(Locale.ROOT) + " text";
            }
            if (first < 0 && !Character.isWhitespace(head[i])) {
                first = i;
            }
        }
        if (first < 0) {
            return null;
        }
        boolean startsLikeJson = head[first] == '{';
        if (this == JSONL && !startsLikeJson) {
            return "a .jsonl file must hold one JSON object per line";
        }
        if (this != JSONL && startsLikeJson) {
            return "it holds JSON, not " + name().toLowerCase(Locale.ROOT) + "; name it .jsonl";
        }
        return null;
    }
}
