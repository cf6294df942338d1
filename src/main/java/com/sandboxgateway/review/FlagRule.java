package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How one flag of the code rules is recognised; each list is one kind of evidence, and any piece of
 * evidence raises the flag. {@code review/README.md} describes each key as operators write it.
 *
 * @param names dotted names used in code ({@code os.environ}, {@code subprocess.*})
 * @param shell patterns over shell commands ({@code !cmd}, {@code %%bash}, strings given to shell calls)
 * @param magics patterns over IPython magic lines ({@code %pip install x})
 * @param literals patterns over the content of string literals, shell commands and magics
 * @param pathArgs patterns over path arguments of file calls
 * @param urlArgs whether a URL given as a path argument ({@code pd.read_csv("https://...")}) counts
 * @param insideOf directories a literal absolute path argument may lie in; any other one (or a {@code ..}
 *                 escape, or {@code ~}) raises the flag; empty means no such check
 * @param sinks calls that run or unpickle their argument ({@code exec}, {@code pickle.loads})
 * @param sources names whose values, reaching a sink's argument, raise the flag
 * @param nonLiteral whether any sink argument that is not a plain string literal raises the flag
 * @param sizeCalls calls whose constant numeric arguments multiply to a size ({@code numpy.zeros})
 * @param minSize the size from which those calls, {@code 'x' * n} and {@code b'\0' * n} raise the flag
 * @param loopMinIterations {@code for _ in range(n)} loops from this many iterations that call a
 *                          {@code loopWrites} method raise the flag, as do {@code while True} loops that do
 *                          and never {@code break}
 */
record FlagRule(String name, Detail detail, NameGlobs names, List<TextPattern> shell, List<TextPattern> magics,
                List<TextPattern> literals, List<TextPattern> pathArgs, boolean urlArgs, List<String> insideOf,
                NameGlobs sinks, NameGlobs sources, boolean nonLiteral, NameGlobs sizeCalls,
                double minSize, double loopMinIterations, List<String> loopWrites) {

    /** What a flag reports beside its name. */
    enum Detail {
        /** Nothing. */
        NONE,
        /** The target host of a network call and whether the session may reach it. */
        HOST,
        /** The first directory of a path outside the allowed ones. */
        PATH,
        /** The known credential file a pattern found, e.g. {@code .aws/credentials}. */
        FILE
    }

    static final Set<String> KEYS = Set.of("description", "detail", "names", "shell", "magics", "literals", "path-args",
            "url-args", "inside-of", "sinks", "sources", "non-literal", "size-calls", "min-size", "loop-min-iterations",
            "loop-writes");
    private static final Pattern FLAG_NAME = Pattern.compile("[a-z][a-z0-9_]{0,47}");
    private static final int FLAGS = Pattern.MULTILINE;

    FlagRule {
        shell = List.copyOf(shell);
        magics = List.copyOf(magics);
        literals = List.copyOf(literals);
        pathArgs = List.copyOf(pathArgs);
        insideOf = List.copyOf(insideOf);
        loopWrites = List.copyOf(loopWrites);
    }

    static FlagRule read(String name, RuleFile rule) {
        if (!FLAG_NAME.matcher(name).matches()) {
            throw rule.problem("flag names must be lower case letters, digits or '_' (at most 48), starting with a letter");
        }
        rule.allowOnly(KEYS);
        String detail = rule.string("detail", "none");
        Detail mode = switch (detail) {
            case "none" -> Detail.NONE;
            case "host" -> Detail.HOST;
            case "path" -> Detail.PATH;
            case "file" -> Detail.FILE;
            default -> throw rule.problem("'detail' must be none, host, path or file, got '" + detail + "'");
        };
        List<String> insideOf = rule.strings("inside-of");
        for (String directory : insideOf) {
            if (!directory.startsWith("/") || directory.contains("..")) {
                throw rule.problem("'inside-of' entries must be absolute directories without '..', got '" + directory + "'");
            }
        }
        FlagRule flag = new FlagRule(name, mode, globs(rule, "names"), patterns(rule, "shell"), patterns(rule, "magics"),
                patterns(rule, "literals"), patterns(rule, "path-args"), bool(rule, "url-args"), insideOf,
                globs(rule, "sinks"), globs(rule, "sources"), bool(rule, "non-literal"), globs(rule, "size-calls"),
                positive(rule, "min-size"), positive(rule, "loop-min-iterations"), rule.strings("loop-writes"));
        String problem = flag.problem();
        if (problem != null) {
            throw rule.problem(problem);
        }
        return flag;
    }

    /** This flag with {@code extra}'s evidence added: an operator extends a standard flag by naming it. */
    FlagRule plus(FlagRule extra, String source) {
        if (detail != Detail.NONE && extra.detail != Detail.NONE && detail != extra.detail) {
            throw new InvalidRulesException(source, "flag '" + name + "' sets 'detail' to " + extra.detail.name().toLowerCase()
                    + " but the flag it extends reports " + detail.name().toLowerCase());
        }
        FlagRule merged = new FlagRule(name, detail == Detail.NONE ? extra.detail : detail, names.plus(extra.names),
                concat(shell, extra.shell), concat(magics, extra.magics), concat(literals, extra.literals),
                concat(pathArgs, extra.pathArgs), urlArgs || extra.urlArgs, concat(insideOf, extra.insideOf),
                sinks.plus(extra.sinks), sources.plus(extra.sources), nonLiteral || extra.nonLiteral,
                sizeCalls.plus(extra.sizeCalls), extra.minSize > 0 ? extra.minSize : minSize,
                extra.loopMinIterations > 0 ? extra.loopMinIterations : loopMinIterations, concat(loopWrites, extra.loopWrites));
        return merged;
    }

    /** What is wrong with this flag's keys, or {@code null}. */
    private String problem() {
        boolean evidence = !names.isEmpty() || !shell.isEmpty() || !magics.isEmpty() || !literals.isEmpty()
                || !pathArgs.isEmpty() || urlArgs || !insideOf.isEmpty() || !sinks.isEmpty() || !sizeCalls.isEmpty()
                || minSize > 0 || loopMinIterations > 0;
        if (!evidence) {
            return "has no evidence to look for: give at least one of names, shell, magics, literals, path-args,"
                    + " url-args, inside-of, sinks, size-calls, min-size or loop-min-iterations";
        }
        if (!sinks.isEmpty() && sources.isEmpty() && !nonLiteral) {
            return "'sinks' needs 'sources' or 'non-literal: true' to say which arguments raise the flag";
        }
        if (sinks.isEmpty() && (!sources.isEmpty() || nonLiteral)) {
            return "'sources' and 'non-literal' only apply together with 'sinks'";
        }
        if (!sizeCalls.isEmpty() && minSize <= 0) {
            return "'size-calls' needs 'min-size'";
        }
        if (loopMinIterations > 0 && loopWrites.isEmpty()) {
            return "'loop-min-iterations' needs 'loop-writes', the methods that write";
        }
        return null;
    }

    private static NameGlobs globs(RuleFile rule, String key) {
        List<String> names = rule.strings(key);
        List<NameGlob> globs = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            try {
                globs.add(NameGlob.of(names.get(i)));
            } catch (IllegalArgumentException e) {
                throw rule.problem("'" + key + "' item " + (i + 1) + ": " + e.getMessage());
            }
        }
        return new NameGlobs(globs);
    }

    private static List<TextPattern> patterns(RuleFile rule, String key) {
        return rule.patterns(key, FLAGS).stream().map(TextPattern::of).toList();
    }

    private static boolean bool(RuleFile rule, String key) {
        String value = rule.string(key, "false");
        if (!value.equals("true") && !value.equals("false")) {
            throw rule.problem("'" + key + "' must be true or false, got '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }

    private static double positive(RuleFile rule, String key) {
        double value = rule.number(key, 0);
        if (value < 0 || Double.isNaN(value)) {
            throw rule.problem("'" + key + "' must be a positive number, got " + value);
        }
        return value;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
