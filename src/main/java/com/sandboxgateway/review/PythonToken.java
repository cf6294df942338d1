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
}
