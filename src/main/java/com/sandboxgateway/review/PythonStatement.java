package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.review.PythonToken.Kind;

/**
 * One statement of a code block, however it is laid out: logical lines are split at top-level
 * {@code ;}, and a compound statement's header ({@code if x:}, {@code for ...:}, {@code with ... as f:},
 * {@code try:}, {@code def}, {@code class}, {@code match}/{@code case}) ends at its first top-level colon
 * that is not a lambda's, so the body written after the colon on the same line is statements too.
 *
 * @param start index of its first token
 * @param end just past its last token: its {@code ;}, line end, or a header's colon
 * @param header whether it is a compound statement's header, whose body is tokens {@code [end + 1, bodyEnd)}:
 *               the rest of its line, or else the lines indented under it
 * @param bodyEnd just past a header's body; {@code end} for other statements
 */
record PythonStatement(int start, int end, boolean header, int bodyEnd) {

    /** Statements whose first top-level colon (not a lambda's) ends a header and opens a body. */
    private static final Set<String> BLOCK_KEYWORDS = Set.of("if", "elif", "else", "for", "while", "with", "try", "except",
            "finally", "def", "class", "async");
    /** Soft keywords that open a block only when a statement is not an assignment to a variable of that name. */
    private static final Set<String> SOFT_BLOCK_KEYWORDS = Set.of("match", "case");

    /** The statements of a block's tokens, in order. */
    static List<PythonStatement> split(List<PythonToken> tokens) {
        List<PythonStatement> statements = new ArrayList<>();
        int start = 0;
        int depth = 0;
        int lambdas = 0;
        for (int i = 0; i <= tokens.size(); i++) {
            PythonToken token = i < tokens.size() ? tokens.get(i) : null;
            if (token == null || token.kind() == Kind.NEWLINE || depth == 0 && token.isOp(";")) {
                if (i > start) {
                    statements.add(new PythonStatement(start, i, false, i));
                }
                start = i + 1;
                depth = 0;
                lambdas = 0;
            } else if (CodeModel.opens(token)) {
                depth++;
            } else if (CodeModel.closes(token)) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && token.is(Kind.NAME, "lambda")) {
                lambdas++;
            } else if (depth == 0 && token.isOp(":")) {
                if (lambdas > 0) {
                    lambdas--;
                } else if (opensBlock(tokens, start, i)) {
                    statements.add(new PythonStatement(start, i, true, bodyEnd(tokens, i)));
                    start = i + 1;
                }
            }
        }
        return statements;
    }

    private static boolean opensBlock(List<PythonToken> tokens, int start, int colon) {
        PythonToken first = tokens.get(start);
        if (first.kind() != Kind.NAME) {
            return false;
        }
        if (BLOCK_KEYWORDS.contains(first.text())) {
            return true;
        }
        // match: int = 1 and match.x: int are annotated assignments, match x: and match (x): open a block.
        return SOFT_BLOCK_KEYWORDS.contains(first.text()) && colon > start + 1 && !tokens.get(start + 1).isOp(".");
    }

    /** Where the body of the header whose colon is at {@code colon} ends: its line, or the lines indented deeper. */
    private static int bodyEnd(List<PythonToken> tokens, int colon) {
        int next = colon + 1;
        if (next < tokens.size() && tokens.get(next).kind() != Kind.NEWLINE) {
            return lineEnd(tokens, next);
        }
        int headerIndent = tokens.get(colon).indent();
        int end = Math.min(next + 1, tokens.size());
        while (end < tokens.size() && tokens.get(end).indent() > headerIndent) {
            end = Math.min(lineEnd(tokens, end) + 1, tokens.size());
        }
        return end;
    }

    private static int lineEnd(List<PythonToken> tokens, int from) {
        int i = from;
        while (i < tokens.size() && tokens.get(i).kind() != Kind.NEWLINE) {
            i++;
        }
        return i;
    }
}
