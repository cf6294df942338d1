package com.sandboxgateway.secrets;

/**
 * Finds, in one text, the next place where any of a few literals occurs. Each literal is searched
 * with {@link String#indexOf} (vectorized by the JVM) and its next position cached, so every literal
 * is scanned over the text at most once however many positions are asked for.
 */
final class Anchors {

    private final String text;
    private final String[] literals;
    private final int[] next;

    private Anchors(String text, String[] literals, int[] next) {
        this.text = text;
        this.literals = literals;
        this.next = next;
    }

    /** A search over {@code text}, or {@code null} when no literal occurs in it (then nothing was allocated). */
    static Anchors in(String text, String... literals) {
        for (int i = 0; i < literals.length; i++) {
            int first = text.indexOf(literals[i]);
            if (first >= 0) {
                int[] next = new int[literals.length];
                java.util.Arrays.fill(next, 0, i, -1);
                next[i] = first;
                for (int j = i + 1; j < literals.length; j++) {
                    next[j] = text.indexOf(literals[j]);
                }
                return new Anchors(text, literals, next);
            }
        }
        return null;
    }

    /** The smallest index at or after {@code from} where a literal starts, or -1. */
    int next(int from) {
        int best = -1;
        for (int i = 0; i < literals.length; i++) {
            if (next[i] != -1 && next[i] < from) {
                next[i] = text.indexOf(literals[i], from);
            }
            if (next[i] >= 0 && (best < 0 || next[i] < best)) {
                best = next[i];
            }
        }
        return best;
    }
}
