package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sandboxgateway.review.CodeModel.Reference;
import com.sandboxgateway.review.FlagRule.Detail;
import com.sandboxgateway.review.NameGlobs.DottedName;
import com.sandboxgateway.review.PythonToken.Kind;

/**
 * The evidence one code block offers, gathered once (references, shell commands, magics, string
 * literals, path arguments) and then checked against each flag rule in turn. Literal code handed to
 * {@code exec}, {@code eval} or {@code compile} is reviewed as a block of its own, with the names the
 * block defined, and its flags count as the block's.
 */
final class BlockReview {

    private static final Pattern URL = Pattern.compile("(?i)\\b(?:https?|ftps?)://[^\\s'\"<>|;)`]+");
    private static final Pattern SHELL_WORD_SEPARATORS = Pattern.compile("[\\s=;|&<>'\"()`]+");
    private static final Set<String> HOST_KEYWORDS = Set.of("url", "host", "address", "hostname");
    /** How deep literal code inside literal code is followed: {@code exec("exec('...')")} is two. */
    private static final int MAX_NESTED_CODE = 4;
    /** Python refuses code nested deeper than 200 brackets, so comprehensions deeper than that need no look. */
    private static final int MAX_BRACKET_DEPTH = 200;

    private final CodeModel model;
    private final List<PythonToken> tokens;
    private final List<String> shell = new ArrayList<>();
    private final List<String> magics;
    private final List<String> literals = new ArrayList<>();
    private final List<String> paths = new ArrayList<>();
    /** The references some glob of the rules matches: the others (print, df.describe) raise nothing. */
    private final List<Reference> ruled = new ArrayList<>();
    /** Sink calls already reported under an earlier flag, by the index of their first token. */
    private final Set<Integer> claimedSinks = new HashSet<>();
    /** The literal code this block runs with {@code exec} and friends. */
    private final List<BlockReview> nested = new ArrayList<>();
    private final Texts shellTexts;
    private final Texts magicTexts;
    private final Texts literalTexts;
    private final Texts pathTexts;
    /** Whether the block has a {@code for} or {@code while}: most have none, and then no loop needs a look. */
    private final boolean loops;
    /** Whether a string stands beside a {@code *} ({@code 'x' * n}, {@code n * b'\0'}): else no repeated string needs a look. */
    private final boolean repeats;

    BlockReview(PythonSource source, CodeRules rules) {
        this(source, rules, rules.aliases(), 0, new HashSet<>());
    }

    /**
     * @param reviewedCode the literal code already reviewed in this block: each distinct text is reviewed
     *                     once, so the work stays proportional to the block however often it runs the same text
     */
    private BlockReview(PythonSource source, CodeRules rules, Map<String, String> aliases, int nesting, Set<String> reviewedCode) {
        this.model = CodeModel.of(source.tokens(), aliases);
        this.tokens = model.tokens();
        this.magics = source.magics();
        shell.addAll(source.shellCommands());
        for (Reference reference : model.references()) {
            if (matches(reference, rules.referenceGlobs())) {
                ruled.add(reference);
            }
        }
        for (Reference reference : ruled) {
            if (reference.hasArguments() && matches(reference, rules.shellCalls())) {
                shell.add(shellCommand(reference));
            }
            if (reference.hasArguments() && matches(reference, rules.pathCalls())) {
                collectPaths(reference, rules.pathKeywords());
            }
            String code = nesting < MAX_NESTED_CODE && reference.hasArguments() && matches(reference, rules.codeCalls())
                    ? literalCode(model.arguments(reference).getFirst()) : null;
            if (code != null && reviewedCode.add(code)) {
                nested.add(new BlockReview(PythonLexer.lex(code), rules, model.aliases(), nesting + 1, reviewedCode));
            }
        }
        paths.addAll(source.magicPaths());
        for (String command : shell) {
            String[] words = SHELL_WORD_SEPARATORS.split(command.strip());
            // The first word is the program run (/bin/sh), which is the subprocess flag's business, not a file accessed.
            for (int i = 1; i < words.length; i++) {
                if (words[i].startsWith("/") || words[i].startsWith("~")) {
                    paths.add(words[i]);
                }
            }
        }
        boolean loop = false;
        boolean repeat = false;
        for (int i = 0; i < tokens.size(); i++) {
            PythonToken token = tokens.get(i);
            if (token.kind() == Kind.STRING) {
                literals.add(token.text());
                repeat |= i + 1 < tokens.size() && tokens.get(i + 1).isOp("*") || i > 0 && tokens.get(i - 1).isOp("*");
            } else if (token.kind() == Kind.NAME) {
                loop |= token.text().equals("for") || token.text().equals("while");
            }
        }
        this.loops = loop;
        this.repeats = repeat;
        literals.addAll(shell);
        literals.addAll(magics);
        this.shellTexts = new Texts(shell);
        this.magicTexts = new Texts(magics);
        this.literalTexts = new Texts(literals);
        this.pathTexts = new Texts(paths);
    }

    void check(FlagRule flag, ReportedFlags found) {
        for (Reference reference : ruled) {
            if (matches(reference, flag.names())) {
                if (flag.detail() == Detail.HOST) {
                    found.addHost(flag.name(), reference.hasArguments() ? hostOf(reference) : HostTarget.UNKNOWN);
                } else {
                    found.add(flag.name(), null);
                }
            }
        }
        texts(flag, flag.shell(), shellTexts, found);
        texts(flag, flag.magics(), magicTexts, found);
        texts(flag, flag.literals(), literalTexts, found);
        texts(flag, flag.pathArgs(), pathTexts, found);
        for (String path : paths) {
            String host = flag.urlArgs() ? HostTarget.ofUrl(path) : null;
            if (host != null) {
                found.addHost(flag.name(), host);
            }
            String outside = flag.insideOf().isEmpty() ? null : FileTarget.outside(path, flag.insideOf());
            if (outside != null) {
                found.add(flag.name(), flag.detail() == Detail.PATH ? "path=" + outside : null);
            }
        }
        if (!flag.sinks().isEmpty()) {
            sinks(flag, found);
        }
        if (flag.minSize() > 0) {
            sizes(flag, found);
        }
        if (flag.loopMinIterations() > 0 && loops) {
            loops(flag, found);
        }
        for (BlockReview code : nested) {
            code.check(flag, found);
        }
    }

    /** The code an argument holds: a plain string literal or a variable holding one; else {@code null}. */
    private String literalCode(List<PythonToken> argument) {
        if (argument.size() != 1) {
            return null;
        }
        PythonToken token = argument.getFirst();
        if (token.kind() == Kind.STRING) {
            return token.fString() ? null : token.value();
        }
        String variable = model.stringValue(token);
        return variable == null ? null : PythonToken.unescape(variable);
    }

    private void texts(FlagRule flag, List<TextPattern> patterns, Texts texts, ReportedFlags found) {
        for (TextPattern pattern : patterns) {
            if (!texts.mayHold(pattern)) {
                continue;
            }
            // One matcher per pattern, made for the first text that may hold a match and reset for the others.
            Matcher matcher = null;
            for (String text : texts.each()) {
                if (!pattern.mayOccurIn(text)) {
                    continue;
                }
                matcher = matcher == null ? pattern.pattern().matcher(text) : matcher.reset(text);
                if (!matcher.find()) {
                    continue;
                }
                switch (flag.detail()) {
                    case HOST -> {
                        Matcher url = URL.matcher(text);
                        boolean any = false;
                        while (url.find()) {
                            found.addHost(flag.name(), HostTarget.ofUrl(url.group()));
                            any = true;
                        }
                        if (!any) {
                            found.addHost(flag.name(), HostTarget.UNKNOWN);
                        }
                    }
                    case FILE -> found.add(flag.name(), "file=" + matcher.group());
                    case PATH -> found.add(flag.name(), "path=" + java.util.Objects.requireNonNullElse(
                            FileTarget.outside(matcher.group(), List.of()), HostTarget.UNKNOWN));
                    case NONE -> found.add(flag.name(), null);
                }
            }
        }
    }

    /** Each sink call is reported once, under the first flag (in rule order) whose condition it meets. */
    private void sinks(FlagRule flag, ReportedFlags found) {
        for (Reference call : ruled) {
            if (!call.isCall() || claimedSinks.contains(call.start()) || !matches(call, flag.sinks())) {
                continue;
            }
            if (argumentsComeFrom(call, flag.sources()) || flag.nonLiteral() && !literalArguments(call)) {
                claimedSinks.add(call.start());
                found.add(flag.name(), null);
            }
        }
    }

    private boolean argumentsComeFrom(Reference call, NameGlobs sources) {
        if (sources.isEmpty() || !call.hasArguments()) {
            return false;
        }
        for (Reference inner : model.referencesBetween(call.open(), call.close())) {
            if (inner.end() <= call.close() && matches(inner, sources)) {
                return true;
            }
        }
        for (int i = call.open() + 1; i < call.close(); i++) {
            if (tokens.get(i).kind() == Kind.NAME) {
                for (String origin : model.originsOf(tokens.get(i).text())) {
                    if (sources.matches(DottedName.of(origin))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private boolean literalArguments(Reference call) {
        for (int i = call.open() + 1; i < call.close(); i++) {
            PythonToken token = tokens.get(i);
            boolean literal = token.kind() == Kind.STRING && !token.fString() || model.stringValue(token) != null || token.isOp(",");
            if (!literal) {
                return false;
            }
        }
        return true;
    }

    private void sizes(FlagRule flag, ReportedFlags found) {
        for (Reference call : ruled) {
            if (call.hasArguments() && matches(call, flag.sizeCalls()) && largestArgument(call) >= flag.minSize()) {
                found.add(flag.name(), null);
            }
        }
        if (!repeats) {
            return;
        }
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (tokens.get(i).kind() == Kind.STRING && tokens.get(i + 1).isOp("*")
                    && ConstantSize.valueAt(tokens, i + 2) >= flag.minSize()) {
                found.add(flag.name(), null);
            }
            if (tokens.get(i).kind() == Kind.NUMBER && tokens.get(i + 1).isOp("*") && tokens.get(i + 2).kind() == Kind.STRING
                    && ConstantSize.valueAt(tokens, i) >= flag.minSize()) {
                found.add(flag.name(), null);
            }
        }
    }

    /**
     * {@code for _ in range(huge)} or {@code while True} without {@code break}, whose body writes; also a
     * comprehension over such a range whose element writes ({@code [f.write(b) for _ in range(huge)]}).
     */
    private void loops(FlagRule flag, ReportedFlags found) {
        // The open brackets around each token (a stack of their indexes, every bracket of the block passes it),
        // each with whether a comprehension's first "for" was seen in it.
        int[] brackets = new int[16];
        boolean[] forSeen = new boolean[brackets.length];
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            PythonToken token = tokens.get(i);
            if (token.kind() == Kind.NEWLINE) {
                depth = 0;
            } else if (CodeModel.opens(token)) {
                if (depth == brackets.length) {
                    brackets = Arrays.copyOf(brackets, 2 * depth);
                    forSeen = Arrays.copyOf(forSeen, 2 * depth);
                }
                brackets[depth] = i;
                forSeen[depth++] = false;
            } else if (CodeModel.closes(token)) {
                depth = Math.max(0, depth - 1);
            } else if (token.is(Kind.NAME, "for") && depth > 0 && !forSeen[depth - 1] && depth <= MAX_BRACKET_DEPTH) {
                int open = brackets[depth - 1];
                forSeen[depth - 1] = true;
                if (largestRange(i, model.closing(open)) >= flag.loopMinIterations() && bodyWrites(open + 1, i, flag.loopWrites(), false)) {
                    found.add(flag.name(), null);
                }
            }
        }
        for (PythonStatement header : model.statements()) {
            if (!header.header()) {
                continue;
            }
            int start = tokens.get(header.start()).is(Kind.NAME, "async") ? header.start() + 1 : header.start();
            PythonToken first = tokens.get(start);
            boolean huge = first.is(Kind.NAME, "for") && largestRange(start, header.end()) >= flag.loopMinIterations();
            boolean endless = first.is(Kind.NAME, "while") && header.end() - start >= 2
                    && (tokens.get(start + 1).is(Kind.NAME, "True") || tokens.get(start + 1).is(Kind.NUMBER, "1"));
            if ((huge || endless) && bodyWrites(header.end() + 1, header.bodyEnd(), flag.loopWrites(), endless)) {
                found.add(flag.name(), null);
            }
        }
    }

    private double largestRange(int start, int end) {
        double largest = 0;
        for (Reference reference : model.referencesBetween(start, end)) {
            if (reference.end() < end && reference.isCall() && reference.resolved().equals("range")) {
                largest = Math.max(largest, largestArgument(reference));
            }
        }
        return largest;
    }

    /** The largest constant argument of a call, a shape tuple counting as the product of its members. */
    private double largestArgument(Reference call) {
        double largest = 0;
        for (List<PythonToken> argument : model.arguments(call)) {
            int from = argument.size() > 2 && argument.get(1).isOp("=") ? 2 : 0;
            largest = Math.max(largest, ConstantSize.productOf(argument, from, argument.size()));
        }
        return largest;
    }

    private boolean bodyWrites(int from, int to, List<String> writes, boolean mustNotBreak) {
        boolean writing = false;
        for (int i = from; i < to; i++) {
            PythonToken token = tokens.get(i);
            if (mustNotBreak && (token.is(Kind.NAME, "break") || token.is(Kind.NAME, "return"))) {
                return false;
            }
            writing |= token.kind() == Kind.NAME && writes.contains(token.text()) && i > 0 && tokens.get(i - 1).isOp(".")
                    && i + 1 < tokens.size() && tokens.get(i + 1).isOp("(");
        }
        return writing;
    }

    /** The host a network call targets: its first argument (or {@code url=}/{@code host=}), a literal or a variable holding one. */
    private String hostOf(Reference call) {
        List<List<PythonToken>> arguments = model.arguments(call);
        if (arguments.isEmpty()) {
            return HostTarget.UNKNOWN;
        }
        List<PythonToken> target = arguments.getFirst();
        for (List<PythonToken> argument : arguments) {
            if (argument.size() > 2 && argument.get(1).isOp("=") && HOST_KEYWORDS.contains(argument.get(0).text())) {
                target = argument.subList(2, argument.size());
            }
        }
        for (PythonToken token : target) {
            String literal = token.kind() == Kind.STRING ? token.literalPrefix() : model.stringValue(token);
            if (literal != null) {
                String host = HostTarget.ofUrlOrHost(literal);
                return host == null ? HostTarget.UNKNOWN : host;
            }
            if (!token.isOp("(")) {
                break;
            }
        }
        return HostTarget.UNKNOWN;
    }

    private String shellCommand(Reference call) {
        StringBuilder command = new StringBuilder();
        for (int i = call.open() + 1; i < call.close(); i++) {
            PythonToken token = tokens.get(i);
            String literal = token.kind() == Kind.STRING ? token.literalPrefix() : model.stringValue(token);
            if (literal != null) {
                command.append(command.isEmpty() ? "" : " ").append(literal);
            }
        }
        return command.toString();
    }

    private void collectPaths(Reference call, Set<String> keywords) {
        for (List<PythonToken> argument : model.arguments(call)) {
            List<PythonToken> value = argument;
            if (argument.size() > 2 && argument.get(0).kind() == Kind.NAME && argument.get(1).isOp("=")) {
                if (!keywords.contains(argument.get(0).text())) {
                    continue;
                }
                value = argument.subList(2, argument.size());
            }
            if (value.isEmpty()) {
                continue;
            }
            PythonToken first = value.getFirst();
            String literal = first.kind() == Kind.STRING ? first.literalPrefix() : model.stringValue(first);
            if (literal != null && !literal.isEmpty()) {
                paths.add(literal);
            }
        }
    }

    /**
     * The texts of one kind that patterns look at, and all of them joined: a pattern's plain text missing from the
     * join is in none of them, so one search of the join replaces one per text for nearly every pattern.
     */
    private record Texts(List<String> each, String joined) {

        Texts(List<String> each) {
            this(each, String.join("\n", each));
        }

        boolean mayHold(TextPattern pattern) {
            return !each.isEmpty() && pattern.mayOccurIn(joined);
        }
    }

    private static boolean matches(Reference reference, NameGlobs globs) {
        for (DottedName candidate : reference.candidates()) {
            if (globs.matches(candidate)) {
                return true;
            }
        }
        return false;
    }
}
