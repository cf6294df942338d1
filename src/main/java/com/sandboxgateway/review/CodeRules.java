package com.sandboxgateway.review;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules a {@link CodeRiskAnalyzer} applies: which names, shell commands, magics, literals and
 * paths raise which flag. The standard set lives in {@code review/code-rules.yml}; an operator's file
 * merged with {@code standard().with(load(path))} may add flags, add evidence to a standard flag by
 * naming it, add aliases and file or shell calls, and switch flags off with {@code disabled:}.
 * Immutable; loading checks every entry and fails with an {@link InvalidRulesException} naming the flag
 * and the problem. The file format is described in {@code review/README.md}.
 */
public final class CodeRules {

    static final String STANDARD_RESOURCE = "review/code-rules.yml";
    private static final Set<String> FILE_KEYS = Set.of("aliases", "shell-calls", "path-calls", "path-keywords", "code-calls",
            "limits", "flags", "disabled");
    private static final Set<String> LIMIT_KEYS = Set.of("max-flags", "max-details-per-flag");

    private static final class Standard {
        static final CodeRules RULES = from(RuleFile.classpath(STANDARD_RESOURCE));
    }

    /**
     * @param maxFlags at most this many flags per block; 0 in an operator file means "keep the other file's"
     * @param maxDetailsPerFlag at most this many details (hosts, paths) per flag
     */
    record Limits(int maxFlags, int maxDetailsPerFlag) {
    }

    private final String source;
    private final Map<String, String> aliases;
    private final NameGlobs shellCalls;
    private final NameGlobs pathCalls;
    private final Set<String> pathKeywords;
    private final NameGlobs codeCalls;
    private final Limits limits;
    private final List<FlagRule> flags;
    private final List<String> disabled;
    private final NameGlobs referenceGlobs;

    private CodeRules(String source, Map<String, String> aliases, NameGlobs shellCalls, NameGlobs pathCalls,
                      Set<String> pathKeywords, NameGlobs codeCalls, Limits limits, List<FlagRule> flags,
                      List<String> disabled) {
        this.source = source;
        this.aliases = Map.copyOf(aliases);
        this.shellCalls = shellCalls;
        this.pathCalls = pathCalls;
        this.pathKeywords = Set.copyOf(pathKeywords);
        this.codeCalls = codeCalls;
        this.limits = limits;
        this.flags = List.copyOf(flags);
        this.disabled = List.copyOf(disabled);
        this.referenceGlobs = referenceGlobs(this.shellCalls, this.pathCalls, this.codeCalls, this.flags);
    }

    private static NameGlobs referenceGlobs(NameGlobs shellCalls, NameGlobs pathCalls, NameGlobs codeCalls, List<FlagRule> flags) {
        Map<String, NameGlob> globs = new LinkedHashMap<>();
        List<NameGlobs> lists = new ArrayList<>(List.of(shellCalls, pathCalls, codeCalls));
        for (FlagRule flag : flags) {
            lists.addAll(List.of(flag.names(), flag.sinks(), flag.sizeCalls()));
        }
        for (NameGlobs list : lists) {
            list.globs().forEach(glob -> globs.putIfAbsent(glob.glob(), glob));
        }
        return new NameGlobs(new ArrayList<>(globs.values()));
    }

    /** The rules shipped with the gateway. */
    public static CodeRules standard() {
        return Standard.RULES;
    }

    /** The rules in a YAML file, e.g. an operator's additions. */
    public static CodeRules load(Path file) {
        return from(RuleFile.read(file));
    }

    /** The rules in YAML read from {@code in}; {@code sourceName} names them in error messages. */
    public static CodeRules load(InputStream in, String sourceName) {
        return from(RuleFile.read(in, sourceName));
    }

    /**
     * These rules with {@code extra} merged in: its flags added, or their evidence added to the flag of
     * the same name; its aliases, shell calls, path calls, keywords and code calls added; the flags it disables
     * removed; its limits used where it sets them.
     *
     * @throws InvalidRulesException when a disabled flag does not exist or a merged flag contradicts itself
     */
    public CodeRules with(CodeRules extra) {
        Map<String, FlagRule> merged = new LinkedHashMap<>();
        flags.forEach(flag -> merged.put(flag.name(), flag));
        for (String name : extra.disabled) {
            if (merged.remove(name) == null) {
                throw new InvalidRulesException(extra.source, "'disabled' names '" + name
                        + "', which is not a flag of the rules it is merged into; known flags: " + merged.keySet());
            }
        }
        for (FlagRule flag : extra.flags) {
            merged.merge(flag.name(), flag, (mine, theirs) -> mine.plus(theirs, extra.source));
        }
        Map<String, String> allAliases = new LinkedHashMap<>(aliases);
        allAliases.putAll(extra.aliases);
        Set<String> keywords = new LinkedHashSet<>(pathKeywords);
        keywords.addAll(extra.pathKeywords);
        Limits mergedLimits = new Limits(extra.limits.maxFlags() > 0 ? extra.limits.maxFlags() : limits.maxFlags(),
                extra.limits.maxDetailsPerFlag() > 0 ? extra.limits.maxDetailsPerFlag() : limits.maxDetailsPerFlag());
        return new CodeRules(source + " + " + extra.source, allAliases, shellCalls.plus(extra.shellCalls),
                pathCalls.plus(extra.pathCalls), keywords, codeCalls.plus(extra.codeCalls), mergedLimits,
                new ArrayList<>(merged.values()), List.of());
    }

    /** The names of the flags these rules can raise, in file order. */
    public List<String> flagNames() {
        return flags.stream().map(FlagRule::name).toList();
    }

    Map<String, String> aliases() {
        return aliases;
    }

    NameGlobs shellCalls() {
        return shellCalls;
    }

    NameGlobs pathCalls() {
        return pathCalls;
    }

    Set<String> pathKeywords() {
        return pathKeywords;
    }

    /** Calls whose first argument is Python source ({@code exec("...")}): a literal one is reviewed like the block. */
    NameGlobs codeCalls() {
        return codeCalls;
    }

    /**
     * Every glob a reference of a block is held against: the shell, path and code calls and each flag's
     * {@code names}, {@code sinks} and {@code size-calls}. A reference none of them matches needs no other look.
     */
    NameGlobs referenceGlobs() {
        return referenceGlobs;
    }

    Limits limits() {
        return limits;
    }

    List<FlagRule> flags() {
        return flags;
    }

    private static CodeRules from(RuleFile file) {
        file.allowOnly(FILE_KEYS);
        List<FlagRule> flags = new ArrayList<>();
        file.sections("flags", "flag").forEach((name, section) -> {
            if (section == null) {
                throw new InvalidRulesException(file.source(), "flag '" + name + "' is empty; give it names, shell, ... (see README)");
            }
            flags.add(FlagRule.read(name, section));
        });
        Limits limits = new Limits(0, 0);
        RuleFile limitSection = file.section("limits", "'limits'");
        if (limitSection != null) {
            limitSection.allowOnly(LIMIT_KEYS);
            limits = new Limits(count(limitSection, "max-flags"), count(limitSection, "max-details-per-flag"));
        }
        Map<String, String> aliases = file.stringMap("aliases");
        aliases.forEach((alias, target) -> {
            try {
                NameGlob.of(alias);
                NameGlob.of(target);
            } catch (IllegalArgumentException e) {
                throw file.problem("alias '" + alias + "': " + e.getMessage());
            }
        });
        return new CodeRules(file.source(), aliases, globs(file, "shell-calls"), globs(file, "path-calls"),
                new LinkedHashSet<>(file.strings("path-keywords")), globs(file, "code-calls"), limits, flags,
                file.strings("disabled"));
    }

    private static int count(RuleFile section, String key) {
        double value = section.number(key, 0);
        if (value < 1 || value > 1000 || value != Math.rint(value)) {
            throw section.problem("'" + key + "' must be a whole number from 1 to 1000, got " + value);
        }
        return (int) value;
    }

    private static NameGlobs globs(RuleFile file, String key) {
        List<NameGlob> globs = new ArrayList<>();
        for (String name : file.strings(key)) {
            try {
                globs.add(NameGlob.of(name));
            } catch (IllegalArgumentException e) {
                throw file.problem("'" + key + "': " + e.getMessage());
            }
        }
        return new NameGlobs(globs);
    }
}
