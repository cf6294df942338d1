package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.sandboxgateway.review.NameGlobs.DottedName;
import com.sandboxgateway.review.PythonToken.Kind;

/**
 * What the tokens of a block refer to: each dotted name ({@code os.environ.get}, {@code df.to_csv}) with
 * the full names it may stand for once imports and aliases are applied ({@code from os import environ
 * as e; e[...]} is {@code os.environ}), the call it makes if any, and for variables what they were
 * assigned: a string literal ({@code url = "https://..."}), another name ({@code run = subprocess.run}),
 * or values derived from other names ({@code r = requests.get(u)}, so {@code exec(r.text)} runs
 * downloaded text). A straight-line, one-pass approximation: no control flow, no scopes, which is what a
 * review signal needs.
 *
 * <p>The unit is the {@linkplain PythonStatement statement}, however it is laid out, so
 * {@code if x: import os; os.system("id")} is three of them.
 */
final class CodeModel {

    private static final Set<String> KEYWORDS = Set.of("False", "None", "True", "and", "as", "assert", "async", "await",
            "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
            "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
            "yield");
    /**
     * Calls that return the module a literal names: {@code __import__("os").system} is {@code os.system}. A list, as is
     * the next: every call's resolved name, a string made for it, meets both, and a set would hash it first where a few
     * comparisons of strings that mostly differ in length cost less.
     */
    private static final List<String> IMPORT_CALLS = List.of("__import__", "builtins.__import__", "importlib.import_module");
    /** Calls that look up an attribute a literal names: {@code getattr(os, "system")} is {@code os.system}. */
    private static final List<String> GETATTR_CALLS = List.of("getattr", "builtins.getattr");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * One dotted name in the code.
     *
     * @param name the name as written; {@code ?.name} for an attribute of an expression ({@code f().name})
     * @param candidates the full names it may stand for, the resolved one first, split once for the rules' globs
     * @param start index of its first token; {@code end} is just past its last
     * @param open index of the {@code (} of its call, or -1 when it is not called; {@code close} its {@code )}
     */
    record Reference(String name, List<DottedName> candidates, int start, int end, int open, int close) {

        /** The full name it stands for once imports and aliases are applied. */
        String resolved() {
            return candidates.getFirst().text();
        }

        boolean isCall() {
            return open >= 0;
        }

        boolean hasArguments() {
            return isCall() && close > open + 1;
        }
    }

    private final List<PythonToken> tokens;
    /** For each opening bracket, the index of the one that closes it; -1 where it is never closed. */
    private final int[] closers;
    private final List<PythonStatement> statements;
    private final List<String> imports = new ArrayList<>();
    private final Map<String, String> aliases = new HashMap<>();
    private final List<String> starModules = new ArrayList<>();
    private final Map<String, String> strings = new HashMap<>();
    private final Map<String, Set<String>> origins = new HashMap<>();
    private final Map<String, String> constructedBy = new HashMap<>();
    private final List<Reference> references = new ArrayList<>();
    /**
     * What names stood for before an assignment inside a block body replaced it: that body may not run
     * ({@code except ImportError: sp = None}), so the name may still stand for it.
     */
    private final Map<String, String> formerAliases = new HashMap<>();
    /** Whether the statement being read is inside a compound statement's body. */
    private boolean conditional;
    /** The modules literal import calls return, by the index of the call's {@code )}. */
    private final Map<Integer, String> importCalls = new HashMap<>();

    private CodeModel(List<PythonToken> tokens, Map<String, String> defaultAliases) {
        this.tokens = tokens;
        this.closers = closers(tokens);
        this.statements = PythonStatement.split(tokens);
        this.aliases.putAll(defaultAliases);
    }

    static CodeModel of(List<PythonToken> tokens, Map<String, String> defaultAliases) {
        CodeModel model = new CodeModel(tokens, defaultAliases);
        int bodyEnd = 0;
        for (PythonStatement statement : model.statements) {
            model.conditional = statement.start() < bodyEnd;
            model.statement(statement);
            bodyEnd = Math.max(bodyEnd, statement.bodyEnd());
        }
        return model;
    }

    List<PythonToken> tokens() {
        return tokens;
    }

    List<PythonStatement> statements() {
        return statements;
    }

    List<Reference> references() {
        return references;
    }

    /** The references that start after token {@code after} and before token {@code before}, in order. */
    List<Reference> referencesBetween(int after, int before) {
        return references.subList(firstStartingAfter(after), firstStartingAfter(before - 1));
    }

    /** The index of the first reference starting after token {@code at}: references are in the order of their start. */
    private int firstStartingAfter(int at) {
        int low = 0;
        int high = references.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (references.get(middle).start() <= at) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /** What the import statements bound, in order, each as {@code local=full.name} ({@code *=module} for a star import). */
    List<String> imports() {
        return imports;
    }

    /** The names that stand for others once the whole block has run: imports, aliases and assigned names. */
    Map<String, String> aliases() {
        return aliases;
    }

    /** The string literal a variable named by {@code token} was assigned, or {@code null}. */
    String stringValue(PythonToken token) {
        return token.kind() == Kind.NAME ? strings.get(token.text()) : null;
    }

    /** The full names the value of variable {@code name} was derived from, directly or through other variables. */
    Set<String> originsOf(String name) {
        return origins.getOrDefault(name, Set.of());
    }

    /**
     * The arguments of a call, each as its tokens, split at top-level commas: brackets inside are stepped over whole
     * (a bracket never closed inside the call leaves the rest one argument), so nested calls cost no walk of their own.
     */
    List<List<PythonToken>> arguments(Reference call) {
        List<List<PythonToken>> arguments = new ArrayList<>();
        if (!call.hasArguments()) {
            return arguments;
        }
        int start = call.open() + 1;
        for (int i = start; i < call.close(); i++) {
            PythonToken token = tokens.get(i);
            if (opens(token)) {
                if (closers[i] < 0 || closers[i] >= call.close()) {
                    break;
                }
                i = closers[i];
            } else if (token.isOp(",")) {
                arguments.add(tokens.subList(start, i));
                start = i + 1;
            }
        }
        if (start < call.close()) {
            arguments.add(tokens.subList(start, call.close()));
        }
        return arguments;
    }

    private void statement(PythonStatement statement) {
        int start = statement.start();
        int end = statement.end();
        PythonToken first = tokens.get(start);
        if (statement.header() && first.is(Kind.NAME, "case")) {
            // A case pattern binds and compares, it calls nothing (case Point(x=0) is no call): only its guard is code.
            int guard = topLevel(start, end, Kind.NAME, "if");
            if (guard > 0) {
                collectReferences(guard + 1, end);
            }
            return;
        }
        if (first.is(Kind.NAME, "import")) {
            imports(start + 1, end);
            return;
        }
        if (first.is(Kind.NAME, "from")) {
            fromImport(start + 1, end);
            return;
        }
        collectReferences(start, end);
        assignments(start, end);
    }

    /**
     * What the statement in tokens {@code [start, end)} binds: {@code a = b = v}, {@code a: T = v},
     * {@code a, b = v, w}, {@code (a := v)}, {@code with v as a}.
     */
    private void assignments(int start, int end) {
        PythonToken first = tokens.get(start);
        List<String> targets = new ArrayList<>();
        int value = start;
        while (value + 1 < end && isVariable(tokens.get(value)) && tokens.get(value + 1).isOp("=")) {
            targets.add(tokens.get(value).text());
            value += 2;
        }
        boolean annotation = isVariable(first) && start + 1 < end && tokens.get(start + 1).isOp(":");
        int annotated = annotation ? topLevel(start + 2, end, Kind.OP, "=") : -1;
        if (targets.isEmpty() && annotated > 0) {
            targets.add(first.text());
            value = annotated + 1;
        }
        if (targets.isEmpty()) {
            unpack(start, end);
        } else if (value < end) {
            assign(targets.getFirst(), value, end);
            targets.subList(1, targets.size()).forEach(target -> sameAs(target, targets.getFirst()));
        }
        for (int i = start + 1; i < end; i++) {
            if (tokens.get(i).isOp(":=") && isVariable(tokens.get(i - 1))) {
                assign(tokens.get(i - 1).text(), i + 1, expressionEnd(i + 1, end));
            }
        }
        if (first.is(Kind.NAME, "with") || first.is(Kind.NAME, "async")) {
            for (int i = start; i < end - 1; i++) {
                if (tokens.get(i).is(Kind.NAME, "as") && tokens.get(i + 1).kind() == Kind.NAME) {
                    assign(tokens.get(i + 1).text(), start + 1, i);
                }
            }
        }
    }

    /** {@code a, b = x, y}: each name is assigned its part of the value, when the counts match. */
    private void unpack(int start, int end) {
        int equals = topLevel(start, end, Kind.OP, "=");
        if (equals < 0) {
            return;
        }
        List<List<PythonToken>> names = split(start, equals);
        List<int[]> values = new ArrayList<>();
        int from = equals + 1;
        for (int i = from; i <= end; i = expressionEnd(i, end) + 1) {
            values.add(new int[] {i, expressionEnd(i, end)});
        }
        if (names.size() < 2 || names.size() != values.size()) {
            return;
        }
        for (int n = 0; n < names.size(); n++) {
            List<PythonToken> name = names.get(n);
            if (name.size() == 1 && isVariable(name.getFirst()) && values.get(n)[0] < values.get(n)[1]) {
                assign(name.getFirst().text(), values.get(n)[0], values.get(n)[1]);
            }
        }
    }

    /** Where the expression starting at {@code from} ends: at the first top-level comma or unmatched closing bracket. */
    private int expressionEnd(int from, int end) {
        int depth = 0;
        for (int i = from; i < end; i++) {
            PythonToken token = tokens.get(i);
            depth += opens(token) ? 1 : closes(token) ? -1 : 0;
            if (depth < 0 || depth == 0 && token.isOp(",")) {
                return i;
            }
        }
        return end;
    }

    private int topLevel(int start, int end, Kind kind, String text) {
        int depth = 0;
        for (int i = start; i < end; i++) {
            PythonToken token = tokens.get(i);
            depth += opens(token) ? 1 : closes(token) ? -1 : 0;
            if (depth == 0 && token.is(kind, text)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isVariable(PythonToken token) {
        return token.kind() == Kind.NAME && !KEYWORDS.contains(token.text());
    }

    private void imports(int start, int end) {
        for (List<PythonToken> part : split(start, end)) {
            String module = dotted(part, 0);
            int as = indexOfName(part, "as");
            if (module != null && as >= 0 && as + 1 < part.size()) {
                imported(part.get(as + 1).text(), module);
            } else if (module != null) {
                String top = module.split("\\.")[0];
                imported(top, top);
            }
        }
    }

    /** {@code from m import a, b as c}, {@code from m import (a, b)}, {@code from . import a}, {@code from ..m import *}. */
    private void fromImport(int start, int end) {
        int from = start;
        StringBuilder module = new StringBuilder();
        while (from < end && tokens.get(from).isOp(".")) {
            module.append('.');
            from++;
        }
        int importAt = -1;
        for (int i = from; i < end; i++) {
            if (tokens.get(i).is(Kind.NAME, "import")) {
                importAt = i;
                break;
            }
        }
        String name = importAt < 0 ? null : importAt == from ? "" : dotted(tokens.subList(from, importAt), 0);
        if (name == null || module.isEmpty() && name.isEmpty()) {
            return;
        }
        module.append(name);
        String prefix = name.isEmpty() ? module.toString() : module + ".";
        for (List<PythonToken> part : split(importAt + 1, end)) {
            List<PythonToken> names = part.stream().filter(t -> !t.isOp("(") && !t.isOp(")")).toList();
            if (names.size() == 1 && names.getFirst().isOp("*")) {
                starModules.add(module.toString());
                imports.add("*=" + module);
            } else if (!names.isEmpty() && names.getFirst().kind() == Kind.NAME) {
                int as = indexOfName(names, "as");
                String local = as >= 0 && as + 1 < names.size() ? names.get(as + 1).text() : names.getFirst().text();
                imported(local, prefix + names.getFirst().text());
            }
        }
    }

    private void imported(String local, String fullName) {
        imports.add(local + "=" + fullName);
        bind(local, fullName);
    }

    private void bind(String local, String fullName) {
        aliases.put(local, fullName);
        formerAliases.remove(local);
        strings.remove(local);
        origins.remove(local);
        constructedBy.remove(local);
    }

    /** {@code a = b = value}: {@code variable} now stands for what {@code other} does. */
    private void sameAs(String variable, String other) {
        for (Map<String, ?> binding : List.of(aliases, strings, origins, constructedBy)) {
            copy(binding, other, variable);
        }
    }

    private static <V> void copy(Map<String, V> binding, String from, String to) {
        if (binding.containsKey(from)) {
            binding.put(to, binding.get(from));
        } else {
            binding.remove(to);
        }
    }

    /** {@code variable} is assigned the value in tokens {@code [start, end)}, whose references are collected. */
    private void assign(String variable, int start, int end) {
        String former = aliases.remove(variable);
        if (conditional && former != null) {
            formerAliases.put(variable, former);
        } else if (!conditional) {
            formerAliases.remove(variable);
        }
        List<PythonToken> value = tokens.subList(start, end);
        String literal = literal(value);
        if (literal != null) {
            strings.put(variable, literal);
        } else {
            strings.remove(variable);
        }
        Set<String> derived = new LinkedHashSet<>();
        constructedBy.remove(variable);
        List<Reference> inValue = referencesBetween(start - 1, end);
        for (Reference reference : inValue) {
            if (reference.end() <= end) {
                for (DottedName candidate : reference.candidates()) {
                    derived.add(candidate.text());
                }
                String resolved = reference.resolved();
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
        Reference whole = inValue.isEmpty() || inValue.getFirst().start() != start ? null : inValue.getFirst();
        if (whole != null && (whole.isCall() ? whole.close() + 1 : whole.end()) == end) {
            String module = importedModule(whole);
            if (module != null) {
                aliases.put(variable, module);
            } else if (!whole.isCall() && !whole.resolved().startsWith("?.")) {
                aliases.put(variable, whole.resolved());
                if (strings.containsKey(whole.name())) {
                    strings.put(variable, strings.get(whole.name()));
                }
            }
        }
    }

    /** The string tokens of {@code value} joined, or {@code null} when it is empty or holds any other token. */
    private static String literal(List<PythonToken> value) {
        if (value.isEmpty() || value.getFirst().kind() != Kind.STRING) {
            return null;
        }
        StringBuilder literal = new StringBuilder();
        for (PythonToken token : value) {
            if (token.kind() != Kind.STRING) {
                return null;
            }
            literal.append(token.literalPrefix());
        }
        return literal.toString();
    }

    /** The module a call such as {@code __import__("os")} returns when its first argument is a literal, else {@code null}. */
    private String importedModule(Reference call) {
        if (!call.hasArguments() || !IMPORT_CALLS.contains(call.resolved())) {
            return null;
        }
        List<PythonToken> first = arguments(call).getFirst();
        if (first.size() != 1 || first.getFirst().kind() != Kind.STRING || first.getFirst().fString()) {
            return null;
        }
        String module = first.getFirst().text().strip();
        // __import__("os.path") returns os; importlib.import_module("os.path") returns os.path.
        return call.resolved().endsWith("__import__") ? module.split("\\.")[0] : module;
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
            int j = i + 1;
            while (j + 1 < end && tokens.get(j).isOp(".") && tokens.get(j + 1).kind() == Kind.NAME) {
                j += 2;
            }
            String name = j == i + 1 ? token.text() : dotted(tokens.subList(i, j), 0);
            String module = onExpression ? importCalls.get(i - 2) : null;
            Reference grouped = onExpression ? groupedBefore(i - 2) : null;
            boolean keywordArgument = j == i + 1 && j < end && tokens.get(j).isOp("=")
                    && (i == start || tokens.get(i - 1).isOp("(") || tokens.get(i - 1).isOp(","));
            if (keywordArgument) {
                continue;
            }
            int open = j < end && tokens.get(j).isOp("(") ? j : -1;
            if (open < 0 && j + 1 < end && tokens.get(j).isOp(")") && tokens.get(j + 1).isOp("(") && inParentheses(i)) {
                open = j + 1;
            }
            String written = grouped != null ? grouped.name() + "." + name : onExpression ? "?." + name : name;
            List<DottedName> candidates = module != null ? List.of(DottedName.of(module + "." + name)) : candidates(written);
            Reference reference = new Reference(written, candidates, i, j, open, open < 0 ? -1 : matching(open, end));
            Reference attribute = literalAttribute(reference, end);
            if (attribute != null) {
                references.add(attribute);
            }
            references.add(reference);
            String imported = importedModule(reference);
            if (imported != null) {
                importCalls.put(reference.close(), imported);
            }
            i = j - 1;
        }
    }

    /**
     * What {@code getattr(os, "system")} stands for, {@code os.system}, as a reference over the whole
     * call (and the call of its result, {@code getattr(os, "system")("id")}); {@code null} for any other call.
     */
    private Reference literalAttribute(Reference call, int end) {
        if (!call.hasArguments() || !GETATTR_CALLS.contains(call.resolved())) {
            return null;
        }
        List<List<PythonToken>> arguments = arguments(call);
        String object = arguments.size() >= 2 ? dotted(arguments.get(0), 0) : null;
        List<PythonToken> attribute = arguments.size() >= 2 ? arguments.get(1) : List.of();
        if (object == null || arguments.get(0).size() != 2 * object.split("\\.").length - 1 || attribute.size() != 1
                || attribute.getFirst().kind() != Kind.STRING || attribute.getFirst().fString()
                || !IDENTIFIER.matcher(attribute.getFirst().text()).matches()) {
            return null;
        }
        String name = object + "." + attribute.getFirst().text();
        int after = call.close() + 1;
        int open = after < end && tokens.get(after).isOp("(") ? after : -1;
        return new Reference("?." + name, candidates(name), call.start(), after, open, open < 0 ? -1 : matching(open, end));
    }

    /** The name in parentheses whose {@code )} is at {@code close}, as in {@code (os).system}, or {@code null}. */
    private Reference groupedBefore(int close) {
        if (!tokens.get(close).isOp(")") || references.isEmpty()) {
            return null;
        }
        Reference last = references.getLast();
        return last.end() == close && !last.isCall() && !last.name().startsWith("?.") && inParentheses(last.start()) ? last : null;
    }

    /** Whether the name at {@code start} is alone in grouping parentheses so far: {@code (name}, not {@code f(name}. */
    private boolean inParentheses(int start) {
        if (start < 1 || !tokens.get(start - 1).isOp("(")) {
            return false;
        }
        PythonToken before = start >= 2 ? tokens.get(start - 2) : null;
        return before == null || !(isVariable(before) || before.kind() == Kind.STRING || closes(before));
    }

    private List<DottedName> candidates(String name) {
        int dot = name.indexOf('.');
        String first = dot < 0 ? name : name.substring(0, dot);
        String alias = aliases.get(first);
        String constructor = dot > 0 ? constructedBy.get(first) : null;
        String former = formerAliases.get(first);
        boolean fromStar = alias == null && !starModules.isEmpty() && !origins.containsKey(first);
        // Most names stand for themselves (df.shape, print): no other part of the name to cut off and join.
        String rest = dot < 0 || alias == null && constructor == null && former == null ? "" : name.substring(dot);
        DottedName resolved = DottedName.of(alias == null ? name : dot < 0 ? alias : alias + rest);
        if (constructor == null && former == null && !fromStar) {
            return List.of(resolved);
        }
        List<DottedName> candidates = new ArrayList<>(2);
        candidates.add(resolved);
        if (constructor != null) {
            candidates.add(DottedName.of(constructor + rest));
        }
        if (former != null) {
            candidates.add(DottedName.of(former + rest));
        }
        if (fromStar) {
            starModules.forEach(module -> candidates.add(DottedName.of(module + "." + name)));
        }
        return List.copyOf(candidates);
    }

    /** The index of the bracket closing the one at {@code open} (the last token when it is never closed). */
    int closing(int open) {
        return matching(open, tokens.size());
    }

    private int matching(int open, int end) {
        int closer = closers[open];
        return closer >= 0 ? closer : Math.max(open, Math.min(end, tokens.size()) - 1);
    }

    /**
     * Every bracket's match, in one pass: a bracket closes the last one still open, whatever their kinds, as a count
     * of the depth from each would find. Walking from each bracket to its match instead cost the square of the nesting
     * depth ({@code f(f(f(...})).
     */
    private static int[] closers(List<PythonToken> tokens) {
        int[] closers = new int[tokens.size()];
        int[] open = new int[tokens.size()];
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            closers[i] = -1;
            if (opens(tokens.get(i))) {
                open[depth++] = i;
            } else if (closes(tokens.get(i)) && depth > 0) {
                closers[open[--depth]] = i;
            }
        }
        return closers;
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
        int last = dottedName.lastIndexOf('.') + 1;
        return last < dottedName.length() && Character.isUpperCase(dottedName.charAt(last));
    }

    // Every bracket walk of the model passes each token here: one character compared, no string.
    static boolean opens(PythonToken token) {
        return isBracket(token, "([{");
    }

    static boolean closes(PythonToken token) {
        return isBracket(token, ")]}");
    }

    private static boolean isBracket(PythonToken token, String brackets) {
        return token.kind() == Kind.OP && token.text().length() == 1 && brackets.indexOf(token.text().charAt(0)) >= 0;
    }
}
