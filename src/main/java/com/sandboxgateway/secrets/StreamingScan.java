package com.sandboxgateway.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Scans one long text that arrives in chunks (an opaque {@code .txt} upload read 64 KB at a time) so
 * that a secret straddling two chunks is still found, and found once.
 *
 * <p>It keeps a window of the text that is not yet settled plus {@value #CONTEXT} characters before
 * it. A finding is reported once it starts at least {@value #CONTEXT} characters before the end of
 * what has arrived, so the rules have seen {@value #CONTEXT} characters of context on either side of
 * its start; anything later waits for the next chunk or {@link #finish()}. Findings longer than that
 * (a PEM key of more than 4 KB) are still reported from their true start, possibly with an early end.
 *
 * <p>Positions are stream offsets, with line numbers ({@link StreamFinding}). Each text is rescanned
 * at most twice, so the cost is close to a single pass for chunks of 8 KB and more. Not thread-safe: one
 * instance per stream.
 */
public final class StreamingScan {

    /** Context kept on each side of a finding's start: a PEM key header with a 2048-bit body, any token. */
    public static final int CONTEXT = 4096;

    private final SecretScanner scanner;
    private final StringBuilder window = new StringBuilder();
    /** Stream offset of {@code window}'s first character. */
    private long windowStart;
    /** Findings starting before this stream offset have been reported. */
    private long settled;
    /** The line {@code settled} is on. */
    private long line = 1;
    private boolean finished;

    public StreamingScan(SecretScanner scanner) {
        this.scanner = Objects.requireNonNull(scanner, "scanner");
    }

    /** Adds the next chunk and returns the findings that are now certain, in order of position (often none). */
    public List<StreamFinding> feed(CharSequence chunk) {
        Objects.requireNonNull(chunk, "chunk");
        if (finished) {
            throw new IllegalStateException("this scan is finished; start a new StreamingScan for another stream");
        }
        window.append(chunk);
        long arrived = windowStart + window.length();
        // Rescanning the window only pays once at least CONTEXT new characters can be settled.
        if (arrived - settled < 2L * CONTEXT) {
            return List.of();
        }
        return settle(arrived - CONTEXT);
    }

    /** Ends the stream and returns the findings not yet reported. */
    public List<StreamFinding> finish() {
        if (finished) {
            return List.of();
        }
        finished = true;
        return settle(windowStart + window.length());
    }

    /** How many characters have been fed so far. */
    public long length() {
        return windowStart + window.length();
    }

    private List<StreamFinding> settle(long upTo) {
        String text = window.toString();
        List<StreamFinding> reported = new ArrayList<>();
        int counted = (int) (settled - windowStart);
        for (Finding finding : scanner.scan(text)) {
            long start = windowStart + finding.start();
            if (start >= settled && start < upTo) {
                line += newlines(text, counted, finding.start());
                counted = finding.start();
                reported.add(new StreamFinding(finding.ruleId(), finding.kind(), start, windowStart + finding.end(), line));
            }
        }
        int settledIndex = (int) (upTo - windowStart);
        line += newlines(text, counted, settledIndex);
        settled = upTo;
        long keepFrom = Math.max(windowStart, settled - CONTEXT);
        window.delete(0, (int) (keepFrom - windowStart));
        windowStart = keepFrom;
        return reported;
    }

    private static int newlines(String text, int from, int to) {
        int count = 0;
        for (int i = text.indexOf('\n', from, to); i >= 0; i = text.indexOf('\n', i + 1, to)) {
            count++;
        }
        return count;
    }
}
