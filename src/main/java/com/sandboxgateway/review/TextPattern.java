package com.sandboxgateway.review;

import java.util.regex.Pattern;

/**
 * A regular expression of the code rules ({@code shell}, {@code magics}, {@code literals}, {@code path-args})
 * with the plain text every match of it contains: {@code \.aws/(credentials|config)\b} only matches a text
 * holding {@code .aws/}. Every pattern meets every string literal of every block and nearly always fails, so
 * {@link #mayOccurIn} lets a caller look for that text with {@code indexOf}, which costs a fraction of a
 * matcher, before it runs the pattern. Immutable.
 *
 * @param required the longest run of plain characters outside groups that every match contains; empty when
 *                 the expression has none this reading is sure of (an alternative at the top, inline flags, ...)
 */
record TextPattern(Pattern pattern, String required) {

    /** Flags under which a match need not contain the characters as written. */
    private static final int LOOSE_FLAGS = Pattern.CASE_INSENSITIVE | Pattern.COMMENTS | Pattern.LITERAL | Pattern.CANON_EQ;
    /** Escapes of one letter that stand for a class or a position and are followed by nothing of their own. */
    private static final String PLAIN_ESCAPES = "bBdDsSwWAzZGhHvVRXntrfae";

    static TextPattern of(Pattern pattern) {
        return new TextPattern(pattern, (pattern.flags() & LOOSE_FLAGS) != 0 ? "" : required(pattern.pattern()));
    }

    /** Whether the pattern may find a match in {@code text}; when not, it surely finds none. */
    boolean mayOccurIn(String text) {
        return text.contains(required);
    }

    /**
     * Reads the expression as a sequence of atoms: a plain character (or an escaped punctuation character) at the
     * top extends the current run, anything else ends it, and a quantifier also takes back the atom it applies
     * to ({@code ab?} requires only {@code a}). Whatever it does not know for sure gives no text.
     */
    private static String required(String regex) {
        if (regex.contains("(?") || regex.contains("\\Q")) {
            return "";
        }
        String longest = "";
        StringBuilder run = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                if (i + 1 == regex.length()) {
                    return "";
                }
                char escaped = regex.charAt(++i);
                if (escaped < 128 && !Character.isLetterOrDigit(escaped)) {
                    if (depth == 0) {
                        run.append(escaped);
                    }
                    continue;
                }
                if (PLAIN_ESCAPES.indexOf(escaped) < 0) {
                    return "";
                }
            } else if (c == '[') {
                i = classEnd(regex, i);
                if (i < 0) {
                    return "";
                }
            } else if (c == '|' && depth == 0) {
                return "";
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '?' || c == '*' || c == '+' || c == '{') {
                if (c == '{') {
                    i = regex.indexOf('}', i);
                    if (i < 0) {
                        return "";
                    }
                }
                if (!run.isEmpty()) {
                    run.setLength(run.length() - 1);
                }
            } else if (depth == 0 && c < 128 && "^$.]}".indexOf(c) < 0) {
                run.append(c);
                continue;
            }
            longest = run.length() > longest.length() ? run.toString() : longest;
            run.setLength(0);
        }
        return run.length() > longest.length() ? run.toString() : longest;
    }

    /** The index of the {@code ]} closing the class opened at {@code open}, or -1 for a class this reading does not take on. */
    private static int classEnd(String regex, int open) {
        int i = open + 1;
        if (i < regex.length() && regex.charAt(i) == '^') {
            i++;
        }
        if (i < regex.length() && regex.charAt(i) == ']') {
            return -1;
        }
        for (; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                return -1;
            } else if (c == ']') {
                return i;
            }
        }
        return -1;
    }
}
