package com.sandboxgateway.review;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.review.PythonToken.Kind;

/**
 * A small Python tokenizer that knows what matters for a static look: comments, single, double and
 * triple-quoted strings with their prefixes ({@code r}, {@code b}, {@code f}, ...), adjacent plain
 * literals as the one string Python makes of them, f-string expressions, bracket depth and line
 * continuations, and the IPython syntax code interpreter accepts
 * ({@code !cmd}, {@code %magic}, {@code %%cell-magic}). It never fails: text it does not understand
 * becomes operator tokens, so a syntax error cannot hide the rest of a block.
 */
final class PythonLexer {

    /** Cell magics whose body is a shell (or another interpreter's) script. */
    private static final Set<String> SHELL_CELLS = Set.of("bash", "sh", "script", "system", "!", "perl", "ruby", "zsh");
    /** Cell magics whose body is still Python. */
    private static final Set<String> PYTHON_CELLS = Set.of("capture", "time", "timeit", "prun", "debug", "python", "python3");
    /** Cell and line magics whose first argument is a path written, run or loaded. */
    private static final Set<String> PATH_MAGICS = Set.of("writefile", "file", "run", "load", "save", "cd", "pushd", "loadpy");
    /** Line magics that run their argument in a shell. */
    private static final Set<String> SHELL_LINES = Set.of("sx", "system", "sc");

    /**
     * The line ends and one-character operators of the common indentations, made once: every line of a block
     * has them ({@code ( ) . , =}), and tokens are values, so they are shared.
     */
    private static final int SHARED_INDENTS = 24;
    private static final PythonToken[] SHARED_NEWLINES = new PythonToken[SHARED_INDENTS];
    private static final PythonToken[][] SHARED_OPERATORS = new PythonToken[SHARED_INDENTS][128];

    static {
        for (int indent = 0; indent < SHARED_INDENTS; indent++) {
            SHARED_NEWLINES[indent] = new PythonToken(Kind.NEWLINE, "", indent, false);
            for (char c = '!'; c <= '~'; c++) {
                if (!Character.isLetterOrDigit(c)) {
                    SHARED_OPERATORS[indent][c] = new PythonToken(Kind.OP, String.valueOf(c), indent, false);
                }
            }
        }
    }

    private final String code;
    private final boolean expression;
    private final List<PythonToken> tokens;
    private final List<String> shell = new ArrayList<>();
    private final List<String> magics = new ArrayList<>();
    private final List<String> magicPaths = new ArrayList<>();
    private int at;
    private int depth;
    private int indent;
    private boolean lineStart = true;

    private PythonLexer(String code, boolean expression) {
        this.code = code;
        this.expression = expression;
        // About a token every three characters in notebook code, so the list rarely grows; a block of one huge
        // string literal has few tokens, hence the cap.
        this.tokens = new ArrayList<>(Math.min(code.length() / 3, 4096) + 1);
    }

    static PythonSource lex(String code) {
        PythonLexer lexer = new PythonLexer(code, false);
        lexer.cellMagic();
        lexer.run();
        return new PythonSource(lexer.tokens, lexer.shell, lexer.magics, lexer.magicPaths);
    }

    /** A {@code %%name} first line decides how the rest of the cell is read. */
    private void cellMagic() {
        int start = skipBlankLines(0);
        if (!code.startsWith("%%", start)) {
            return;
        }
        int end = lineEnd(start);
        String header = code.substring(start, end).trim();
        String name = header.substring(2).split("\\s+", 2)[0];
        magics.add(header);
        String argument = header.substring(2 + name.length()).trim();
        String body = end < code.length() ? code.substring(end + 1) : "";
        if (PATH_MAGICS.contains(name)) {
            magicPaths.add(lastWord(argument));
            at = code.length();
        } else if (SHELL_CELLS.contains(name)) {
            shell.add(body);
            at = code.length();
        } else if (PYTHON_CELLS.contains(name)) {
            at = end;
        } else {
            at = code.length();
        }
    }

    private void run() {
        while (at < code.length()) {
            char c = code.charAt(at);
            if (lineStart && !expression) {
                startLine();
                continue;
            }
            if (c == '#') {
                at = lineEnd(at);
            } else if (c == '\\' && at + 1 < code.length() && (code.charAt(at + 1) == '\n' || code.charAt(at + 1) == '\r')) {
                at = lineEnd(at) + 1;
            } else if (c == '\n') {
                newline();
            } else if (Character.isWhitespace(c)) {
                at++;
            } else if (!expression && c == '!' && !code.startsWith("!=", at)) {
                shellLine(at + 1);
            } else if (!expression && c == '%' && assignsMagic()) {
                lineMagic();
            } else if (isStringStart(at)) {
                string();
            } else if (c == '_' || Character.isUnicodeIdentifierStart(code.codePointAt(at))) {
                name();
            } else if (Character.isDigit(c) || c == '.' && at + 1 < code.length() && Character.isDigit(code.charAt(at + 1))) {
                number();
            } else {
                operator(c);
            }
        }
        if (!tokens.isEmpty() && tokens.getLast().kind() != Kind.NEWLINE) {
            tokens.add(indent < SHARED_INDENTS ? SHARED_NEWLINES[indent] : new PythonToken(Kind.NEWLINE, "", indent, false));
        }
    }

    /** At the start of a logical line: measure the indentation, skip blank lines, catch {@code !} and {@code %}. */
    private void startLine() {
        int column = 0;
        while (at < code.length() && (code.charAt(at) == ' ' || code.charAt(at) == '\t')) {
            column += code.charAt(at) == '\t' ? 8 - column % 8 : 1;
            at++;
        }
        if (at >= code.length()) {
            return;
        }
        char c = code.charAt(at);
        if (c == '\n' || c == '\r' || c == '#') {
            at = lineEnd(at) + 1;
            return;
        }
        indent = column;
        lineStart = false;
        if (c == '!') {
            shellLine(at + (code.startsWith("!!", at) ? 2 : 1));
        } else if (c == '%') {
            lineMagic();
        }
    }

    /** {@code x = %sx ls} or {@code x = !ls}: a magic may follow an assignment. */
    private boolean assignsMagic() {
        int n = tokens.size();
        return n >= 2 && tokens.get(n - 1).isOp("=") && tokens.get(n - 2).kind() == Kind.NAME
                && (n == 2 || tokens.get(n - 3).kind() == Kind.NEWLINE);
    }

    private void shellLine(int from) {
        int end = continuedLineEnd(from);
        shell.add(code.substring(from, end).replace("\\\n", " ").trim());
        at = end;
        newline();
    }

    private void lineMagic() {
        int end = continuedLineEnd(at);
        String line = code.substring(at, end).replace("\\\n", " ").trim();
        String name = line.replaceFirst("^%+", "").split("\\s+", 2)[0];
        String argument = line.substring(line.indexOf(name) + name.length()).trim();
        magics.add(line);
        if (SHELL_LINES.contains(name)) {
            shell.add(argument);
        } else if (PATH_MAGICS.contains(name) && !argument.isEmpty()) {
            magicPaths.add(lastWord(argument));
        }
        at = end;
        newline();
    }

    private void newline() {
        if (depth == 0) {
            if (!tokens.isEmpty() && tokens.getLast().kind() != Kind.NEWLINE) {
                tokens.add(indent < SHARED_INDENTS ? SHARED_NEWLINES[indent] : new PythonToken(Kind.NEWLINE, "", indent, false));
            }
            lineStart = true;
        }
        at++;
    }

    private boolean isStringStart(int i) {
        int j = i;
        while (j < code.length() && j - i < 2 && "rRbBuUfFtT".indexOf(code.charAt(j)) >= 0) {
            j++;
        }
        if (j >= code.length() || (code.charAt(j) != '\'' && code.charAt(j) != '"')) {
            return false;
        }
        return j == i || i == 0 || !(Character.isLetterOrDigit(code.charAt(i - 1)) || code.charAt(i - 1) == '_');
    }

    private void string() {
        int quoteAt = at;
        while (code.charAt(quoteAt) != '\'' && code.charAt(quoteAt) != '"') {
            quoteAt++;
        }
        String prefix = code.substring(at, quoteAt).toLowerCase();
        char quote = code.charAt(quoteAt);
        String tripleQuote = quote == '"' ? "\"\"\"" : "'''";
        boolean triple = code.startsWith(tripleQuote, quoteAt);
        int contentStart = quoteAt + (triple ? 3 : 1);
        int i = contentStart;
        int contentEnd;
        while (true) {
            if (i >= code.length()) {
                contentEnd = code.length();
                at = contentEnd;
                break;
            }
            char c = code.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (triple ? c == quote && code.startsWith(tripleQuote, i) : c == quote) {
                contentEnd = i;
                at = i + (triple ? 3 : 1);
                break;
            } else if (!triple && c == '\n') {
                contentEnd = i;
                at = i;
                break;
            } else {
                i++;
            }
        }
        String content = code.substring(contentStart, Math.min(contentEnd, code.length()));
        boolean fString = prefix.indexOf('f') >= 0 || prefix.indexOf('t') >= 0;
        PythonToken previous = tokens.isEmpty() ? null : tokens.getLast();
        if (previous != null && previous.kind() == Kind.STRING) {
            // "https://pypi.org" f".evil.example.com/{p}" is one literal to Python, and must be one to the rules.
            // (A previous f-string with fields would end in their tokens, not in a string.)
            tokens.set(tokens.size() - 1, new PythonToken(Kind.STRING, previous.text() + content, previous.indent(),
                    previous.fString() || fString));
        } else {
            tokens.add(new PythonToken(Kind.STRING, content, indent, fString));
        }
        if (fString) {
            fStringExpressions(content);
        }
    }

    /**
     * The code inside an f-string's replacement fields, tokenized in place so that it is looked at like
     * other code: of {@code {expression=!r:>{width}}} the expression, then the fields nested in the format
     * spec; the {@code =}, the conversion and the spec itself are text.
     */
    private void fStringExpressions(String content) {
        for (int i = 0; i < content.length(); i++) {
            if (content.startsWith("{{", i)) {
                i++;
            } else if (content.charAt(i) == '{') {
                int close = fieldEnd(content, i + 1);
                String field = content.substring(i + 1, close);
                int expressionEnd = expressionEnd(field);
                String expression = field.substring(0, expressionEnd).stripTrailing();
                if (expression.endsWith("=") && !expression.matches("(?s).*[=!<>]=")) {
                    expression = expression.substring(0, expression.length() - 1);
                }
                PythonLexer inner = new PythonLexer(expression, true);
                inner.indent = indent;
                inner.run();
                tokens.add(operatorToken('('));
                inner.tokens.stream().filter(t -> t.kind() != Kind.NEWLINE)
                        .forEach(t -> tokens.add(new PythonToken(t.kind(), t.text(), indent, t.fString())));
                tokens.add(operatorToken(')'));
                int spec = field.indexOf(':', expressionEnd);
                if (spec >= 0) {
                    fStringExpressions(field.substring(spec + 1));
                }
                i = close;
            }
        }
    }

    /** The index of the {@code }} closing the field that starts at {@code from}, or the length when it is unclosed. */
    private static int fieldEnd(String content, int from) {
        int level = 0;
        for (int i = from; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c == '\'' || c == '"') {
                i = quoteEnd(content, i);
            } else if (c == '{') {
                level++;
            } else if (c == '}' && level-- == 0) {
                return i;
            }
        }
        return content.length();
    }

    /** Where a field's expression ends: at its top-level {@code !conversion} or {@code :spec}, else at its end. */
    private static int expressionEnd(String field) {
        int level = 0;
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\'' || c == '"') {
                i = quoteEnd(field, i);
            } else if ("([{".indexOf(c) >= 0) {
                level++;
            } else if (")]}".indexOf(c) >= 0) {
                level--;
            } else if (level == 0 && (c == ':' || c == '!' && !field.startsWith("!=", i))) {
                return i;
            }
        }
        return field.length();
    }

    /** The index of the quote closing the string literal whose opening quote is at {@code open}. */
    private static int quoteEnd(String text, int open) {
        char quote = text.charAt(open);
        int end = text.indexOf(quote, open + 1);
        return end < 0 ? text.length() : end;
    }

    /**
     * A name, NFKC-normalized as Python does it, so {@code ｏｓ.ｓｙｓｔｅｍ} (full-width) and mathematical
     * bold letters are the {@code os.system} they run.
     */
    private void name() {
        boolean ascii = code.charAt(at) < 0x80;
        int end = at + Character.charCount(code.codePointAt(at));
        while (end < code.length()) {
            char c = code.charAt(end);
            if (c < 0x80) {
                // The ASCII identifier characters, without the Unicode tables every name's every character would consult.
                if (c != '_' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
                    break;
                }
                end++;
            } else {
                int point = code.codePointAt(end);
                if (!Character.isUnicodeIdentifierPart(point) || Character.isIdentifierIgnorable(point)) {
                    break;
                }
                ascii = false;
                end += Character.charCount(point);
            }
        }
        String name = code.substring(at, end);
        add(Kind.NAME, ascii ? name : Normalizer.normalize(name, Normalizer.Form.NFKC));
        at = end;
    }

    private void number() {
        int end = at;
        while (end < code.length()) {
            char c = code.charAt(end);
            boolean exponentSign = (c == '+' || c == '-') && end > at && "eE".indexOf(code.charAt(end - 1)) >= 0
                    && !code.substring(at, end).toLowerCase().startsWith("0x");
            if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || exponentSign) {
                end++;
            } else {
                break;
            }
        }
        add(Kind.NUMBER, code.substring(at, end));
        at = end;
    }

    private void operator(char c) {
        if (at + 1 < code.length() && isTwoCharOperator(c, code.charAt(at + 1))) {
            add(Kind.OP, code.substring(at, at + 2));
            at += 2;
            return;
        }
        if ("([{".indexOf(c) >= 0) {
            depth++;
        } else if (")]}".indexOf(c) >= 0 && depth > 0) {
            depth--;
        }
        tokens.add(operatorToken(c));
        at++;
    }

    private PythonToken operatorToken(char c) {
        PythonToken shared = indent < SHARED_INDENTS && c < 128 ? SHARED_OPERATORS[indent][c] : null;
        return shared != null ? shared : new PythonToken(Kind.OP, String.valueOf(c), indent, false);
    }

    /**
     * {@code ** // == != <= >= << >> -> :=} and the augmented assignments ({@code += -= *= /= %= &= |= ^= @=}); told
     * from the two characters, since every operator of a block passes here.
     */
    private static boolean isTwoCharOperator(char first, char second) {
        return second == '=' && "=!<>:+-*/%&|^@".indexOf(first) >= 0
                || first == second && "*/<>".indexOf(first) >= 0
                || first == '-' && second == '>';
    }

    private void add(Kind kind, String text) {
        tokens.add(new PythonToken(kind, text, indent, false));
    }

    private int lineEnd(int from) {
        int end = code.indexOf('\n', from);
        return end < 0 ? code.length() : end;
    }

    private int continuedLineEnd(int from) {
        int end = lineEnd(from);
        while (end < code.length() && end > from && code.charAt(end - 1) == '\\') {
            end = lineEnd(end + 1);
        }
        return end;
    }

    private int skipBlankLines(int from) {
        int i = from;
        while (i < code.length()) {
            int end = lineEnd(i);
            String line = code.substring(i, end).trim();
            if (!line.isEmpty() && !line.startsWith("#")) {
                return i + (code.substring(i, end).length() - code.substring(i, end).stripLeading().length());
            }
            i = end + 1;
        }
        return code.length();
    }

    private static String lastWord(String argument) {
        String[] words = argument.trim().split("\\s+");
        return words[words.length - 1].replaceAll("^['\"]|['\"]$", "");
    }
}
