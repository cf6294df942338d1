package com.sandboxgateway.review;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules an {@link InjectionDetector} applies: the standard set in {@code review/injection-rules.yml},
 * optionally merged with an operator's file ({@code standard().with(load(path))}), which may add rules
 * and switch standard ones off with {@code disabled:}. Immutable; loading checks every rule and fails
 * with an {@link InvalidRulesException} naming the rule and the problem. The file format is described in
 * {@code review/README.md}.
 */
public final class InjectionRules {

    static final String STANDARD_RESOURCE = "review/injection-rules.yml";
    private static final Set<String> FILE_KEYS = Set.of("rules", "disabled");
    private static final Set<String> RULE_KEYS = Set.of("id", "category", "keywords", "pattern", "description");
    private static final Pattern CATEGORY = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    /** {@code ^} and {@code $} are line anchors. */
    private static final int PATTERN_FLAGS = Pattern.MULTILINE;

    private static final class Standard {
        static final InjectionRules RULES = from(RuleFile.classpath(STANDARD_RESOURCE));
    }

    private final List<InjectionRule> rules;
    private final List<String> disabled;

    private InjectionRules(List<InjectionRule> rules, List<String> disabled) {
        this.rules = List.copyOf(rules);
        this.disabled = List.copyOf(disabled);
    }

    /** The rules shipped with the gateway. */
    public static InjectionRules standard() {
        return Standard.RULES;
    }

    /** The rules in a YAML file, e.g. an operator's additions. */
    public static InjectionRules load(Path file) {
        return from(RuleFile.read(file));
    }

    /** The rules in YAML read from {@code in}; {@code sourceName} names them in error messages. */
    public static InjectionRules load(InputStream in, String sourceName) {
        return from(RuleFile.read(in, sourceName));
    }

    /**
     * These rules without the ones {@code extra} disables, followed by {@code extra}'s own rules. To
     * change a standard rule, disable it and add a rule with a new id.
     *
     * @throws InvalidRulesException when an id is defined twice or a disabled id names no rule here
     */
    public InjectionRules with(InjectionRules extra) {
        Map<String, InjectionRule> merged = new LinkedHashMap<>();
        rules.forEach(rule -> merged.put(rule.id(), rule));
        for (String id : extra.disabled) {
            if (merged.remove(id) == null) {
                throw new InvalidRulesException(sourceOf(extra), "'disabled' names '" + id
                        + "', which is not a rule of the rules it is merged into; known ids: " + merged.keySet());
            }
        }
        for (InjectionRule rule : extra.rules) {
            InjectionRule clash = merged.putIfAbsent(rule.id(), rule);
            if (clash != null) {
                throw new InvalidRulesException(rule.source(), "rule '" + rule.id() + "' is already defined in "
                        + clash.source() + "; give it another id, or disable that rule first");
            }
        }
        return new InjectionRules(new ArrayList<>(merged.values()), List.of());
    }

    /** The ids of the rules, in the order they are tried. */
    public List<String> ruleIds() {
        return rules.stream().map(InjectionRule::id).toList();
    }

    List<InjectionRule> rules() {
        return rules;
    }

    private String sourceOf(InjectionRules extra) {
        return extra.rules.isEmpty() ? "operator rules" : extra.rules.getFirst().source();
    }

    private static InjectionRules from(RuleFile file) {
        file.allowOnly(FILE_KEYS);
        List<InjectionRule> rules = new ArrayList<>();
        Set<String> ids = new java.util.HashSet<>();
        for (RuleFile item : file.list("rules", "rule")) {
            InjectionRule rule = rule(item);
            if (!ids.add(rule.id())) {
                throw new InvalidRulesException(file.source(), "rule '" + rule.id() + "' is defined twice");
            }
            rules.add(rule);
        }
        return new InjectionRules(rules, file.strings("disabled"));
    }

    private static InjectionRule rule(RuleFile item) {
        String id = item.id("id");
        RuleFile rule = item.named("rule '" + id + "'").allowOnly(RULE_KEYS);
        String category = rule.string("category");
        if (!CATEGORY.matcher(category).matches()) {
            throw rule.problem("'category' must be lower case letters, digits or '_', got '" + category + "'");
        }
        List<String> keywords = new ArrayList<>();
        for (String keyword : rule.strings("keywords")) {
            String folded = FoldedText.foldEach(keyword).trim().replaceAll(" +", " ");
            if (folded.length() < 2) {
                throw rule.problem("keyword '" + keyword + "' is shorter than 2 characters; it would send most texts to the pattern");
            }
            if (!folded.chars().allMatch(c -> c < 128)) {
                throw rule.problem("keyword '" + keyword + "' holds characters that fold to no ASCII character;"
                        + " keywords are matched on folded text (see README)");
            }
            keywords.add(folded);
        }
        if (keywords.isEmpty()) {
            throw rule.problem("needs at least one entry in 'keywords': the pattern only runs on texts holding one");
        }
        String pattern = rule.string("pattern");
        for (char c : pattern.toCharArray()) {
            char folded = FoldedText.fold(c);
            if (c >= 128 && folded != c) {
                throw rule.problem("the pattern holds '" + c + "', but patterns see folded text (lower case, no accents,"
                        + " full-width as ASCII): write '" + (folded == FoldedText.SKIP ? "" : String.valueOf(folded)) + "' instead");
            }
        }
        // Texts are folded to lower case, so a lower-case pattern needs no case-insensitive matching, which is slower.
        int flags = hasUpperCaseLiteral(pattern) ? PATTERN_FLAGS | Pattern.CASE_INSENSITIVE : PATTERN_FLAGS;
        return new InjectionRule(id, category, keywords, rule.pattern("pattern'", pattern, flags), rule.source());
    }

    /** Whether an upper-case letter occurs outside escapes such as {@code \S}, {@code \W} or {@code \p{Lu}}. */
    private static boolean hasUpperCaseLiteral(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                char escaped = pattern.charAt(++i);
                if ((escaped == 'p' || escaped == 'P') && i + 1 < pattern.length() && pattern.charAt(i + 1) == '{') {
                    i = Math.max(i, pattern.indexOf('}', i));
                }
            } else if (Character.isUpperCase(c)) {
                return true;
            }
        }
        return false;
    }
}
