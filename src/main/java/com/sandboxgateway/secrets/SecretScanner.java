package com.sandboxgateway.secrets;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Finds credentials and personal data in text: prompts, instructions, {@code domain_secrets} values,
 * and every cell or line of uploaded files. Immutable and thread-safe; build it once and share it.
 *
 * <p>Made for millions of short texts: one pass over the characters tells which rules could match at
 * all (a cell like {@code 42.50} or {@code Alice} runs none and allocates nothing), and each rule
 * that runs starts from plain string searches for its prefixes or keywords before it looks closer.
 * Every rule takes time linear in the length of the text, whatever the text is. Long free text is
 * better fed to a {@link StreamingScan} in chunks.
 *
 * <p>Findings carry positions, never values, and no message this package produces quotes the text.
 */
public final class SecretScanner {

    private static final SecretScanner STANDARD = new SecretScanner(StandardRules.inPrecedenceOrder());

    private final Rule[] rules;
    /**
     * For each combination of character kinds ({@link TextTraits} flags), the triggers whose kind
     * conditions it meets and the index of each one's rule, in precedence order (a rule's triggers side
     * by side): a cell of digits looks at the few triggers that need digits only, not at every rule's.
     */
    private final int[][] rulesByFlags = new int[TextTraits.FLAG_COMBINATIONS][];
    private final Trigger[][] triggersByFlags = new Trigger[TextTraits.FLAG_COMBINATIONS][];
    /** Shorter texts ({@code EUR}, {@code 42.50}, {@code yes}) cannot hold any finding. */
    private final int shortestFinding;

    SecretScanner(List<Rule> rules) {
        this.rules = rules.toArray(Rule[]::new);
        this.shortestFinding = rules.stream().flatMap(rule -> rule.triggers().stream()).mapToInt(Trigger::minLength).min().orElse(0);
        for (int flags = 0; flags < rulesByFlags.length; flags++) {
            List<Integer> ruleIndexes = new ArrayList<>();
            List<Trigger> triggers = new ArrayList<>();
            for (int i = 0; i < this.rules.length; i++) {
                for (Trigger trigger : this.rules[i].triggers()) {
                    if (trigger.admitsKinds(flags)) {
                        ruleIndexes.add(i);
                        triggers.add(trigger);
                    }
                }
            }
            rulesByFlags[flags] = ruleIndexes.stream().mapToInt(Integer::intValue).toArray();
            triggersByFlags[flags] = triggers.toArray(Trigger[]::new);
        }
    }

    /** The scanner with every rule of this package; see {@link #ruleIds()}. */
    public static SecretScanner standard() {
        return STANDARD;
    }

    /**
     * The findings in {@code text}, in order of position. They never overlap: where two rules claim the
     * same characters, the more specific rule wins (vendor tokens over generic assignments, credentials
     * over personal data).
     */
    public List<Finding> scan(CharSequence text) {
        Objects.requireNonNull(text, "text");
        if (text.length() < shortestFinding) {
            return List.of();
        }
        long traits = TextTraits.of(text);
        int length = text.length();
        int digits = TextTraits.digits(traits);
        int longestRun = TextTraits.longestRun(traits);
        // Made only once a rule runs: most cells of a data file are let through by the traits alone.
        String string = null;
        Findings found = null;
        int[] ruleOf = rulesByFlags[TextTraits.flags(traits)];
        Trigger[] triggers = triggersByFlags[TextTraits.flags(traits)];
        int ran = -1;
        for (int t = 0; t < triggers.length; t++) {
            int i = ruleOf[t];
            if (i != ran && triggers[t].admitsCounts(length, digits, longestRun)) {
                if (string == null) {
                    string = text.toString();
                }
                found = rules[i].findAll(string, found);
                ran = i;
            }
        }
        return found == null ? List.of() : found.toList();
    }

    /** {@code text} with every finding replaced by {@code [REDACTED:<ruleId>]}. */
    public String redact(CharSequence text) {
        return redact(text, scan(text));
    }

    /**
     * {@code text} with each finding replaced by {@code [REDACTED:<ruleId>]}. The findings must come
     * from scanning this same text; overlapping ones are merged under the first one's marker, so no
     * character of any finding survives.
     *
     * @throws IllegalArgumentException when a finding lies beyond the end of {@code text}
     */
    public String redact(CharSequence text, List<Finding> findings) {
        Objects.requireNonNull(text, "text");
        if (findings.isEmpty()) {
            return text.toString();
        }
        List<Finding> ordered = new ArrayList<>(findings);
        ordered.sort(Comparator.comparingInt(Finding::start));
        StringBuilder redacted = new StringBuilder(text.length());
        int copied = 0;
        for (Finding finding : ordered) {
            if (finding.end() > text.length()) {
                throw new IllegalArgumentException("a " + finding.ruleId() + " finding ends at " + finding.end()
                        + " but the text has " + text.length() + " characters; redact the text that was scanned");
            }
            if (finding.start() >= copied) {
                redacted.append(text, copied, finding.start()).append("[REDACTED:").append(finding.ruleId()).append(']');
            }
            copied = Math.max(copied, finding.end());
        }
        return redacted.append(text, copied, text.length()).toString();
    }

    /** The ids of this scanner's rules, in order of precedence. */
    public List<String> ruleIds() {
        return java.util.Arrays.stream(rules).map(Rule::id).distinct().toList();
    }

    /** A new chunked scan of one stream with this scanner. */
    public StreamingScan streaming() {
        return new StreamingScan(this);
    }
}
