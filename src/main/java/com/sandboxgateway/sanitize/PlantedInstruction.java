package com.sandboxgateway.sanitize;

/**
 * Text in uploaded data that reads like an instruction aimed at a model: where it sits and which rule
 * matched, never the text itself.
 *
 * @param ruleId the injection rule that matched, e.g. {@code override-previous-en}
 * @param category what the text tries: {@code override}, {@code secret_request}, {@code exfiltration},
 *        {@code role_markup}, or an operator rule's category
 * @param line the 1-based line where the record (CSV row, JSON line, text line) starts
 * @param column the 1-based field of a CSV/TSV row, or position of the top-level key of a JSON line;
 *        0 in a text file
 */
public record PlantedInstruction(String ruleId, String category, long line, int column) {

    /** {@code override; line=12; column=3}, as the {@code X-Gateway-Flags} header and messages show it. */
    public String where() {
        return category + "; line=" + line + (column > 0 ? "; column=" + column : "");
    }
}
