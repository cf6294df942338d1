package com.sandboxgateway.review;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds text that reads like instructions aimed at a model (prompt injection) in uploaded data: one CSV
 * cell or JSON string value at a time, while the file streams through sanitization. Immutable and
 * thread-safe; build it once and share it.
 *
 * <p>Made for multi-gigabyte uploads of numbers, dates and short words: a text shorter than the
 * shortest keyword returns at once, and any other text is read once through a keyword automaton that
 * folds case, accents, full-width letters, look-alike letters and zero-width characters as it goes and
 * allocates nothing unless a keyword occurs. Only then is the text normalized and the regular
 * expressions of the rules whose keywords occurred are run: on the text with its line breaks, for rules
 * anchored at line starts, and with line breaks as spaces, for phrases broken over lines.
 */
public final class InjectionDetector {

    private final InjectionRule[] rules;
    private final KeywordIndex keywords;

    private InjectionDetector(List<InjectionRule> rules) {
        this.rules = rules.toArray(InjectionRule[]::new);
        this.keywords = new KeywordIndex(rules.stream().map(InjectionRule::keywords).toList());
    }

    /** A detector applying {@code rules}, tried in their order. */
    public static InjectionDetector fromRules(InjectionRules rules) {
        return new InjectionDetector(rules.rules());
    }

    /**
     * The first rule, in rule order, that matches {@code text}; empty for ordinary data. The match names
     * the rule and its category, never the text.
     */
    public Optional<InjectionMatch> find(CharSequence text) {
        Objects.requireNonNull(text, "text");
        if (text.length() < keywords.shortestKeyword()) {
            return Optional.empty();
        }
        long[] candidates = keywords.candidates(text);
        if (candidates == null) {
            return Optional.empty();
        }
        String lines = FoldedText.normalize(text);
        // A phrase may be broken over lines; rules with line anchors need the breaks, the others must not see them.
        String flat = lines.indexOf('\n') < 0 ? null : lines.replace('\n', ' ');
        for (int i = 0; i < rules.length; i++) {
            if ((candidates[i >>> 6] & 1L << i) != 0 && matches(rules[i], lines, flat)) {
                return Optional.of(rules[i].match());
            }
        }
        return Optional.empty();
    }

    private static boolean matches(InjectionRule rule, String lines, String flat) {
        return rule.pattern().matcher(lines).find() || flat != null && rule.pattern().matcher(flat).find();
    }
}
