package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.sandboxgateway.review.PythonToken.Kind;

/**
 * What the tokens of a block refer to: each dotted name ({@code os.environ.get}, {@code df.to_csv}) with
 * the full names it may stand for once imports and aliases are applied ({@code from os import environ
 * as e; e[...]} is {@code os.environ}), the call it makes if any, and for variables what they were
 * assigned: a string literal ({@code url = "https://..."}) or values derived from other names
 * ({@code r = requests.get(u)}, so {@code exec(r.text)} runs downloaded text). A straight-line, one-pass
 * approximation: no control flow, no scopes, which is what a review signal needs.
 */
final class CodeModel {

    private static final Set<String> KEYWORDS = Set.of("False", "None", "True", "and", "as", "assert", "async", "await",
            "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
            "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
            "yield");

    /**
     * One dotted name in the code.
     *
     * @param candidates the full names it may stand for, the resolved one first
     * @param start index of its first token; {@code end} is just past its last
     * @param open index of the {@code (} of its call, or -1 when it is not called; {@code close} its {@code )}
     */
    record Reference(List<String> candidates, int start, int end, int open, int close) {

        boolean isCall() {
            return open >= 0;
        }

        boolean hasArguments() {
            return isCall() && close > open + 1;
        }
    }

    private final List<PythonToken> tokens;
    private final Map<String, String> aliases = new HashMap<>();
    private final List<String> starModules = new ArrayList<>();
    private final Map<String, String> strings = new HashMap<>();
    private final Map<String, Set<String>> origins = new HashMap<>();
    private final Map<String, String> constructedBy = new HashMap<>();
    private final List<Reference> references = new ArrayList<>();

    private CodeModel(List<PythonToken> tokens, Map<String, String> defaultAliases) {
        this.tokens = tokens;
        this.aliases.putAll(defaultAliases);
    }

    static CodeModel of(List<PythonToken> tokens, Map<String, String> defaultAliases) {
        CodeModel model = new CodeModel(tokens, defaultAliases);
        int lineStart = 0;
        for (int i = 0; i <= tokens.size(); i++) {
            if (i == tokens.size() || tokens.get(i).kind() == Kind.NEWLINE) {
                if (i > lineStart) {
                    model.line(lineStart, i);
                }
                lineStart = i + 1;
            }
        }
        return model;
    }

    List<PythonToken> tokens() {
        return tokens;
    }

    List<Reference> references() {
        return references;
    }

    /** The string literal a variable named by {@code token} was assigned, or {@code null}. */
    String stringValue(PythonToken token) {
        return token.kind() == Kind.NAME ? strings.get(token.text()) : null;
    }

    /** The full names the value of variable {@code name} was derived from, directly or through other variables. */
    Set<String> originsOf(String name) {
        return origins.getOrDefault(name, Set.of());
    }

    /** The arguments of a call, each as its tokens, split at top-level commas. */
    List<List<PythonToken>> arguments(Reference call) {
        List<List<PythonToken>> arguments = new ArrayList<>();
        if (!call.hasArguments()) {
            return arguments;
        }
        int depth = 0;
        int start = call.open() + 1;
        for (int i = start; i < call.close(); i++) {
            PythonToken token = tokens.get(i);
            depth += opens(token) ? 1 : closes(token) ? -1 : 0;
            if (depth == 0 && token.isOp(",")) {
                arguments.add(tokens.subList(start, i));
                start = i + 1;
            }
        }
        if (start < call.close()) {
            arguments.add(tokens.subList(start, call.close()));
        }
        return arguments;
    }

    private void line(int start, int end) {
        PythonToken first = tokens.get(start);
        if (first.is(Kind.NAME, "import")) {
            imports(start + 1, end);
            return;
        }
        if (first.is(Kind.NAME, "from")) {
            fromImport(start + 1, end);
            return;
        }
        int before = references.size();
        collectReferences(start, end);
        if (end - start >= 3 && first.kind() == Kind.NAME && tokens.get(start + 1).isOp("=")) {
            assign(first.text(), start + 2, end, before);
        }
        for (int i = start; i < end - 1; i++) {
            if ((first.is(Kind.NAME, "with") || first.is(Kind.NAME, "async")) && tokens.get(i).is(Kind.NAME, "as")
                    && tokens.get(i + 1).kind() == Kind.NAME) {
                assign(tokens.get(i + 1).text(), start + 1, i, before);
            }
        }
    }

    private void imports(int start, int end) {
        for (List<PythonToken> part : split(start, end)) {
            String module = dotted(part, 0);
            int as = indexOfName(part, "as");
            if (module != null && as >= 0 && as + 1 < part.size()) {
                bind(part.get(as + 1).text(), module);
            } else if (module != null) {
                String top = module.split("\\.")[0];
                bind(top, top);
            }
        }
    }

    private void fromImport(int start, int end) {
        int importAt = -1;
        for (int i = start; i < end; i++) {
            if (tokens.get(i).is(Kind.NAME, "import")) {
                importAt = i;
                break;
            }
        }
        String module = importAt < 0 ? null : dotted(tokens.subList(start, importAt), 0);
        if (module == null) {
            return;
        }
        for (List<PythonToken> part : split(importAt + 1, end)) {
            List<PythonToken> names = part.stream().filter(t -> !t.isOp("(") && !t.isOp(")")).toList();
            if (names.size() == 1 && names.getFirst().isOp("*")) {
                starModules.add(module);
            } else if (!names.isEmpty() && names.getFirst().kind() == Kind.NAME) {
                int as = indexOfName(names, "as");
                String local = as >= 0 && as + 1 < names.size() ? names.get(as + 1).text() : names.getFirst().text();
                bind(local, module + "." + names.getFirst().text());
            }
        }
    }

    private void bind(String local, String fullName) {
        aliases.put(local, fullName);
        strings.remove(local);
        origins.remove(local);
        constructedBy.remove(local);
    }

    private void assign(String variable, int start, int end, int firstReference) {
        aliases.remove(variable);
        List<PythonToken> value = tokens.subList(start, end);
        if (!value.isEmpty() && value.stream().allMatch(t -> t.kind() == Kind.STRING)) {
            strings.put(variable, String.join("", value.stream().map(PythonToken::literalPrefix).toList()));
        } else {
            strings.remove(variable);
        }
        Set<String> derived = new LinkedHashSet<>();
        constructedBy.remove(variable);
        for (int r = firstReference; r < references.size(); r++) {
            Reference reference = references.get(r);
            if (reference.start() >= start && reference.end() <= end) {
                derived.addAll(reference.candidates());
                String resolved = reference.candidates().getFirst();
                if (reference.start() == start && reference.isCall() && isClassName(resolved)) {
                    constructedBy.put(variable, resolved);
                }
            }
        }
        for (PythonToken token : value) {
            if (token.kind() == Kind.NAME) {
                derived.addAll(originsOf(token.text()));
            }
        }
        origins.put(variable, derived);
    }

    private void collectReferences(int start, int end) {
        for (int i = start; i < end; i++) {
            PythonToken token = tokens.get(i);
            if (token.kind() != Kind.NAME || KEYWORDS.contains(token.text())) {
                continue;
            }
            boolean afterDot = i > start && tokens.get(i - 1).isOp(".");
            boolean onExpression = afterDot && i - 2 >= start && (tokens.get(i - 2).isOp(")") || tokens.get(i - 2).isOp("]")
                    || tokens.get(i - 2).kind() == Kind.STRING);
            if (afterDot && !onExpression || i > start && (tokens.get(i - 1).is(Kind.NAME, "def") || tokens.get(i - 1).is(Kind.NAME, "class"))) {
                continue;
            }
            StringBuilder name = new StringBuilder(onExpression ? "?." : "").append(token.text());
            int j = i + 1;
            while (j + 1 < end && tokens.get(j).isOp(".") && tokens.get(j + 1).kind() == Kind.NAME) {
                name.append('.').append(tokens.get(j + 1).text());
                j += 2;
            }
            boolean keywordArgument = j == i + 1 && j < end && tokens.get(j).isOp("=")
                    && (i == start || tokens.get(i - 1).isOp("(") || tokens.get(i - 1).isOp(","));
            if (keywordArgument) {
                continue;
            }
            int open = j < end && tokens.get(j).isOp("(") ? j : -1;
            references.add(new Reference(candidates(name.toString()), i, j, open, open < 0 ? -1 : matching(open, end)));
            i = j - 1;
        }
    }

    private List<String> candidates(String name) {
        List<String> candidates = new ArrayList<>(2);
        int dot = name.indexOf('.');
        String first = dot < 0 ? name : name.substring(0, dot);
        String rest = dot < 0 ? "" : name.substring(dot);
        String alias = aliases.get(first);
        candidates.add(alias != null ? alias + rest : name);
        String constructor = constructedBy.get(first);
        if (constructor != null && dot > 0) {
            candidates.add(constructor + rest);
        }
        if (alias == null && !origins.containsKey(first)) {
            starModules.forEach(module -> candidates.add(module + "." + name));
        }
        return List.copyOf(candidates);
    }

    private int matching(int open, int end) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            PythonToken token = tokens.get(i);
            depth += opens(token) ? 1 : closes(token) ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        return Math.max(open, Math.min(end, tokens.size()) - 1);
    }

    private List<List<PythonToken>> split(int start, int end) {
        List<List<PythonToken>> parts = new ArrayList<>();
        int partStart = start;
        for (int i = start; i <= end; i++) {
            if (i == end || tokens.get(i).isOp(",")) {
                parts.add(tokens.subList(partStart, i));
                partStart = i + 1;
            }
        }
        return parts;
    }

    private static String dotted(List<PythonToken> part, int from) {
        if (part.size() <= from || part.get(from).kind() != Kind.NAME) {
            return null;
        }
        StringBuilder name = new StringBuilder(part.get(from).text());
        for (int i = from + 1; i + 1 < part.size() && part.get(i).isOp(".") && part.get(i + 1).kind() == Kind.NAME; i += 2) {
            name.append('.').append(part.get(i + 1).text());
        }
        return name.toString();
    }

    private static int indexOfName(List<PythonToken> part, String name) {
        for (int i = 0; i < part.size(); i++) {
            if (part.get(i).is(Kind.NAME, name)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isClassName(String dottedName) {
        String last = dottedName.substring(dottedName.lastIndexOf('.') + 1);
        return !last.isEmpty() && Character.isUpperCase(last.charAt(0));
    }

    static boolean opens(PythonToken token) {
        return token.kind() == Kind.OP && (token.text().equals("(") || token.text().equals("[") || token.text().equals("{"));
    }

    static boolean closes(PythonToken token) {
        return token.kind() == Kind.OP && (token.text().equals(")") || token.text().equals("]") || token.text().equals("}"));
    }
}
