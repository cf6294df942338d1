package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small POSIX-shell (and bash) lexer, enough to tell what a command line runs: words with single,
 * double and {@code $'...'} quoting and backslash escapes removed; {@code |}, {@code &&}, {@code ||},
 * {@code ;}, {@code &} and line breaks; redirections with their targets; here-documents and
 * here-strings; {@code $(...)}, backquotes and {@code <(...)} lexed as scripts of their own. Comments are
 * dropped. It never fails: unbalanced quotes run to the end of the text, and substitutions nested deeper
 * than {@value #MAX_DEPTH} are left out.
 */
final class ShellLexer {

    private static final int MAX_DEPTH = 16;
    private static final char NO_END = '\0';
    private static final Pattern REDIRECT = Pattern.compile("\\d*(&>>|&>|>>|>\\||>&|<<<|<<-|<<|<>|<&|>|<)(?!\\()");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]");

    private final String text;
    private final int depth;
    private final List<HereDocument> pending = new ArrayList<>();
    private int pos;

    private ShellLexer(String text, int depth) {
        this.text = text;
        this.depth = depth;
    }

    static ShellScript lex(String text) {
        return new ShellLexer(text, 0).script(NO_END);
    }

    /** A simple command being read; its here-document body arrives after the line it is on. */
    private static final class Builder {
        final List<ShellScript.Word> words = new ArrayList<>();
        final List<ShellScript.Redirect> redirects = new ArrayList<>();
        String input;

        boolean isEmpty() {
            return words.isEmpty() && redirects.isEmpty() && input == null;
        }

        ShellScript.Command build() {
            return new ShellScript.Command(words, redirects, input);
        }
    }

    private record HereDocument(String delimiter, boolean stripTabs, Builder owner) {
    }

    private ShellScript script(char end) {
        List<List<Builder>> pipelines = new ArrayList<>();
        List<Builder> pipeline = new ArrayList<>();
        Builder command = new Builder();
        pipeline.add(command);
        pipelines.add(pipeline);
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == end) {
                pos++;
                break;
            }
            boolean newPipeline = false;
            boolean newCommand = false;
            Matcher redirect = null;
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (text.startsWith("\\\n", pos)) {
                pos += 2;
            } else if (c == '#') {
                int line = text.indexOf('\n', pos);
                pos = line < 0 ? text.length() : line;
            } else if (c == '\n') {
                pos++;
                readHereDocuments();
                newPipeline = true;
            } else if (text.startsWith("&&", pos) || text.startsWith("||", pos) || text.startsWith(";;", pos)) {
                pos += 2;
                newPipeline = true;
            } else if (c == ';' || c == '(' || c == ')' || (c == '&' && !text.startsWith("&>", pos))) {
                pos++;
                newPipeline = true;
            } else if (c == '|') {
                pos += text.startsWith("|&", pos) ? 2 : 1;
                newCommand = true;
            } else if ((redirect = redirectAt(c)) != null) {
                pos = redirect.end();
                redirect(redirect.group(1), command);
            } else {
                ShellScript.Word word = word();
                if (word == null) {
                    pos++;
                } else {
                    command.words.add(word);
                }
            }
            if (newPipeline) {
                pipeline = new ArrayList<>();
                pipelines.add(pipeline);
            }
            if (newPipeline || newCommand) {
                command = new Builder();
                pipeline.add(command);
            }
        }
        if (depth == 0) {
            readHereDocuments();
        }
        List<List<ShellScript.Command>> built = new ArrayList<>();
        for (List<Builder> commands : pipelines) {
            List<ShellScript.Command> list = commands.stream().filter(b -> !b.isEmpty()).map(Builder::build).toList();
            if (!list.isEmpty()) {
                built.add(list);
            }
        }
        return new ShellScript(built);
    }

    /** The redirection operator at {@code pos} (with its file descriptor), or {@code null}. */
    private Matcher redirectAt(char c) {
        if (c != '<' && c != '>' && c != '&' && (c < '0' || c > '9')) {
            return null;
        }
        Matcher redirect = REDIRECT.matcher(text).region(pos, text.length());
        return redirect.lookingAt() ? redirect : null;
    }

    private void skipBlanks() {
        while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
            pos++;
        }
    }

    private void redirect(String operator, Builder command) {
        skipBlanks();
        ShellScript.Word target = word();
        if (target == null) {
            return;
        }
        switch (operator) {
            case "<<", "<<-" -> pending.add(new HereDocument(target.text(), operator.equals("<<-"), command));
            case "<<<" -> command.input = target.text();
            default -> command.redirects.add(new ShellScript.Redirect(operator, target));
        }
    }

    /** The bodies of the here-documents opened on the line just ended. */
    private void readHereDocuments() {
        for (HereDocument document : pending) {
            StringBuilder body = new StringBuilder();
            while (pos < text.length()) {
                int end = text.indexOf('\n', pos);
                String line = text.substring(pos, end < 0 ? text.length() : end);
                pos = end < 0 ? text.length() : end + 1;
                String compared = document.stripTabs() ? line.replaceFirst("^\t+", "") : line;
                if (compared.strip().equals(document.delimiter())) {
                    break;
                }
                body.append(line).append('\n');
            }
            document.owner().input = body.toString();
        }
        pending.clear();
    }

    private ShellScript.Word word() {
        StringBuilder out = new StringBuilder();
        List<String> expansions = new ArrayList<>();
        List<ShellScript> substitutions = new ArrayList<>();
        boolean any = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if ((c == '<' || c == '>') && text.startsWith("(", pos + 1)) {
                pos += 2;
                substitutions.add(nested(')'));
                any = true;
                continue;
            }
            if (" \t\r\n;|&()<>".indexOf(c) >= 0) {
                break;
            }
            any = true;
            switch (c) {
                case '\'' -> {
                    int close = text.indexOf('\'', pos + 1);
                    close = close < 0 ? text.length() : close;
                    out.append(text, pos + 1, close);
                    pos = Math.min(close + 1, text.length());
                }
                case '"' -> doubleQuoted(out, expansions, substitutions);
                case '\\' -> {
                    if (pos + 1 < text.length() && text.charAt(pos + 1) != '\n') {
                        out.append(text.charAt(pos + 1));
                    }
                    pos += 2;
                }
                case '$' -> dollar(out, expansions, substitutions);
                case '`' -> backquoted(substitutions);
                default -> {
                    out.append(c);
                    pos++;
                }
            }
        }
        pos = Math.min(pos, text.length());
        return any ? new ShellScript.Word(out.toString(), expansions, substitutions) : null;
    }

    private void doubleQuoted(StringBuilder out, List<String> expansions, List<ShellScript> substitutions) {
        pos++;
        while (pos < text.length() && text.charAt(pos) != '"') {
            char c = text.charAt(pos);
            if (c == '\\' && pos + 1 < text.length() && "$`\"\\\n".indexOf(text.charAt(pos + 1)) >= 0) {
                if (text.charAt(pos + 1) != '\n') {
                    out.append(text.charAt(pos + 1));
                }
                pos += 2;
            } else if (c == '$') {
                dollar(out, expansions, substitutions);
            } else if (c == '`') {
                backquoted(substitutions);
            } else {
                out.append(c);
                pos++;
            }
        }
        pos++;
    }

    private void dollar(StringBuilder out, List<String> expansions, List<ShellScript> substitutions) {
        if (text.startsWith("$((", pos)) {
            int end = closing(pos + 1, '(', ')');
            out.append(text, pos, end);
            pos = end;
        } else if (text.startsWith("$(", pos)) {
            pos += 2;
            substitutions.add(nested(')'));
        } else if (text.startsWith("${", pos)) {
            int end = closing(pos + 1, '{', '}');
            String inside = text.substring(pos + 2, Math.max(pos + 2, end - 1));
            Matcher name = NAME.matcher(inside.replaceFirst("^[!#]", ""));
            if (name.lookingAt()) {
                expansions.add(name.group());
            }
            out.append(text, pos, end);
            pos = end;
        } else if (text.startsWith("$'", pos)) {
            int close = text.indexOf('\'', pos + 2);
            close = close < 0 ? text.length() : close;
            out.append(text, pos + 2, close);
            pos = Math.min(close + 1, text.length());
        } else {
            Matcher name = NAME.matcher(text).region(pos + 1, text.length());
            if (name.lookingAt()) {
                expansions.add(name.group());
                out.append('$').append(name.group());
                pos = name.end();
            } else {
                out.append('$');
                pos++;
            }
        }
    }

    private void backquoted(List<ShellScript> substitutions) {
        int close = pos + 1;
        while (close < text.length() && text.charAt(close) != '`') {
            close += text.charAt(close) == '\\' ? 2 : 1;
        }
        close = Math.min(close, text.length());
        if (depth < MAX_DEPTH) {
            String inner = text.substring(pos + 1, close).replace("\\`", "`").replace("\\\\", "\\").replace("\\$", "$");
            substitutions.add(new ShellLexer(inner, depth + 1).script(NO_END));
        }
        pos = Math.min(close + 1, text.length());
    }

    /** The script of a {@code $(...)} or {@code <(...)} whose opening is just read; {@code pos} ends after it. */
    private ShellScript nested(char end) {
        if (depth >= MAX_DEPTH) {
            pos = closing(pos - 1, '(', ')');
            return new ShellScript(List.of());
        }
        ShellLexer inner = new ShellLexer(text, depth + 1);
        inner.pos = pos;
        ShellScript script = inner.script(end);
        pos = inner.pos;
        return script;
    }

    /** The index after the bracket closing the one at {@code open}, counting nesting; the text's end if none. */
    private int closing(int open, char opening, char closingBracket) {
        int level = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == opening) {
                level++;
            } else if (c == closingBracket && --level == 0) {
                return i + 1;
            }
        }
        return text.length();
    }
}
