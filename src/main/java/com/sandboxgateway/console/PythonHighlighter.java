package com.sandboxgateway.console;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Python source as escaped HTML, one {@code <span class="line">} per line (numbered by the style sheet),
 * with keywords, built-ins, strings, numbers and comments in classes the style sheet colours. For reading
 * only: the review signals come from the analyzer in {@code review/}, not from this.
 */
final class PythonHighlighter {

    private static final Pattern TOKEN = Pattern.compile("""
            (?<comment>\\#[^\\n]*)\
            |(?<string>(?i:[rbuf]{0,2})(?:\"\"\"[\\s\\S]*?(?:\"\"\"|\\z)|'''[\\s\\S]*?(?:'''|\\z)\
            |"(?:[^"\\\\\\n]|\\\\.)*"?|'(?:[^'\\\\\\n]|\\\\.)*'?))\
            |(?<number>\\b(?:0[xob][0-9a-f_]+|\\d[\\d_]*(?:\\.\\d*)?(?:e[+-]?\\d+)?j?)\\b)\
            |(?<word>[A-Za-z_][A-Za-z0-9_]*)""", Pattern.CASE_INSENSITIVE);

    private static final Set<String> KEYWORDS = Set.of("False", "None", "True", "and", "as", "assert", "async", "await",
            "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
            "import", "in", "is", "lambda", "match", "case", "nonlocal", "not", "or", "pass", "raise", "return", "try",
            "while", "with", "yield");
    private static final Set<String> BUILTINS = Set.of("print", "open", "len", "range", "exec", "eval", "compile",
            "__import__", "getattr", "setattr", "globals", "locals", "input", "int", "str", "float", "list", "dict", "set",
            "tuple", "bytes", "type", "isinstance", "enumerate", "zip", "map", "filter", "sorted", "sum", "min", "max", "abs");

    private PythonHighlighter() {
    }

    static String highlight(String source) {
        // A last newline ends the last line; it does not start an empty one.
        String code = source.endsWith("\n") ? source.substring(0, source.length() - 1) : source;
        Lines lines = new Lines();
        Matcher token = TOKEN.matcher(code);
        int at = 0;
        while (token.find()) {
            lines.add(null, code.substring(at, token.start()));
            lines.add(classOf(token), token.group());
            at = token.end();
        }
        lines.add(null, code.substring(at));
        return lines.html();
    }

    private static String classOf(Matcher token) {
        if (token.group("comment") != null) {
            return "tok-comment";
        }
        if (token.group("string") != null) {
            return "tok-string";
        }
        if (token.group("number") != null) {
            return "tok-number";
        }
        String word = token.group("word");
        return KEYWORDS.contains(word) ? "tok-keyword" : BUILTINS.contains(word) ? "tok-builtin" : null;
    }

    /** Spans never cross a line: a token over several lines (a triple-quoted string) is closed and reopened. */
    private static final class Lines {

        private final StringBuilder html = new StringBuilder("<span class=\"line\">");

        void add(String cssClass, String text) {
            String[] parts = text.split("\n", -1);
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    html.append("</span>\n<span class=\"line\">");
                }
                if (!parts[i].isEmpty()) {
                    html.append(cssClass == null ? "" : "<span class=\"" + cssClass + "\">").append(Html.esc(parts[i]))
                            .append(cssClass == null ? "" : "</span>");
                }
            }
        }

        String html() {
            return html.append("</span>").toString();
        }
    }
}
