package com.sandboxgateway.review;

/**
 * One token of a Python code block. Comments are gone, strings are one token whose {@code text} is the
 * literal's content between the quotes (escapes left as written), and the expressions inside an
 * f-string's braces follow it as ordinary tokens in parentheses.
 *
 * @param text the name, number or operator as written; a string's content
 * @param indent the indentation of the logical line the token belongs to
 * @param fString whether a string token is an f-string (its text may hold {@code {expressions}})
 */
record PythonToken(Kind kind, String text, int indent, boolean fString) {

    enum Kind { NAME, NUMBER, STRING, OP, NEWLINE }

    boolean is(Kind kind, String text) {
        return this.kind == kind && this.text.equals(text);
    }

    boolean isOp(String op) {
        return is(Kind.OP, op);
    }

    /** A string's content up to the first f-string placeholder: the part that is known before running. */
    String literalPrefix() {
        if (!fString) {
            return text;
        }
        int brace = text.indexOf('{');
        return brace < 0 ? text : text.substring(0, brace);
    }

    /**
     * A string's value as the program sees it, the escapes {@code \n}, {@code \t}, {@code \r}, quotes,
     * backslash, line continuation, {@code \xNN}, {@code \}{@code uNNNN} and octal applied (a raw string's text
     * is read the same way, which only matters for code that looks strange anyway).
     */
    String value() {
        return unescape(text);
    }

    /** {@code text} as written in a string literal, with the escapes {@link #value()} applies applied. */
    static String unescape(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder value = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                value.append(c);
                continue;
            }
            char escaped = text.charAt(++i);
            switch (escaped) {
                case 'n' -> value.append('\n');
                case 't' -> value.append('\t');
                case 'r' -> value.append('\r');
                case '\n' -> { }
                case 'x' -> i = appendCode(text, value, i, 2, 16);
                case 'u' -> i = appendCode(text, value, i, 4, 16);
                case '0', '1', '2', '3', '4', '5', '6', '7' -> i = appendCode(text, value, i - 1, 3, 8);
                default -> value.append(escaped);
            }
        }
        return value.toString();
    }

    /** Appends the character whose code is the up to {@code digits} digits after {@code at}; returns the last index read. */
    private static int appendCode(String text, StringBuilder value, int at, int digits, int radix) {
        int end = at + 1;
        while (end < text.length() && end - at - 1 < digits && Character.digit(text.charAt(end), radix) >= 0) {
            end++;
        }
        if (end == at + 1) {
            value.append(text.charAt(at));
            return at;
        }
        value.append((char) Integer.parseInt(text.substring(at + 1, end), radix));
        return end - 1;
    }
}
