package com.sandboxgateway.review;

import java.util.List;
import java.util.regex.Pattern;

import com.sandboxgateway.openai.OutputItem;

/**
 * How one {@code code_interpreter_call} ended, for counting failures in a row (a session whose code
 * keeps failing is running away). A call failed when its status is {@code failed} or
 * {@code incomplete}, or when its logs show a Python exception: a traceback header, or a last line
 * such as {@code NameError: name 'x' is not defined}.
 */
public enum CallOutcome {

    /** Completed, and the logs show no exception. */
    SUCCEEDED,
    /** Status {@code failed} or {@code incomplete}. */
    FAILED,
    /** Completed, but the code raised an exception (a traceback in the logs). */
    RAISED,
    /** Status {@code in_progress} or {@code interpreting}: not over yet, count nothing. */
    PENDING;

    private static final Pattern TRACEBACK = Pattern.compile("Traceback \\(most recent call last\\)");
    /** {@code NameError: ...}, {@code pandas.errors.ParserError: ...}, {@code KeyboardInterrupt}. */
    private static final Pattern EXCEPTION_LINE = Pattern.compile(
            "^[A-Za-z_][A-Za-z0-9_.]*(Error|Exception|Interrupt|Exit|Fault)(:.*)?$");

    /** Whether this outcome counts as a failure. */
    public boolean isFailure() {
        return this == FAILED || this == RAISED;
    }

    /**
     * The outcome of a call with this {@code status} and these {@code logs} outputs (the {@code logs}
     * strings of its {@code outputs} of type {@code logs}; images are irrelevant).
     */
    public static CallOutcome of(String status, List<String> logs) {
        String normalized = status == null ? "completed" : status.strip().toLowerCase(java.util.Locale.ROOT);
        switch (normalized) {
            case "failed", "incomplete" -> {
                return FAILED;
            }
            case "in_progress", "interpreting", "searching" -> {
                return PENDING;
            }
            default -> {
                return logs.stream().anyMatch(CallOutcome::showsException) ? RAISED : SUCCEEDED;
            }
        }
    }

    /** The outcome of a {@code code_interpreter_call} output item as the Responses API returns it. */
    public static CallOutcome ofItem(OutputItem item) {
        return of(item.status(), item.logs());
    }

    private static boolean showsException(String log) {
        if (log == null || log.isBlank()) {
            return false;
        }
        if (TRACEBACK.matcher(log).find()) {
            return true;
        }
        // The last line that is not blank, stripped, matched where it lies (each answer's logs pass here: no copies).
        int end = log.length();
        while (end > 0 && (Character.isWhitespace(log.charAt(end - 1)) || isLineBreak(log.charAt(end - 1)))) {
            end--;
        }
        int start = end;
        while (start > 0 && !isLineBreak(log.charAt(start - 1))) {
            start--;
        }
        while (start < end && Character.isWhitespace(log.charAt(start))) {
            start++;
        }
        return start < end && EXCEPTION_LINE.matcher(log).region(start, end).matches();
    }

    /** The characters {@code \R} breaks lines at. */
    private static boolean isLineBreak(char c) {
        return c == '\n' || c == '\r' || c == '\u000B' || c == '\f' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }
}
