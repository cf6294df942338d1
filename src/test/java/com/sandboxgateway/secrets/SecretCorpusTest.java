package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * Recall and false positives over the corpus. Every positive must be found by its rule with exactly
 * the marked span; no negative may yield any finding. The figures are printed for the record.
 */
class SecretCorpusTest {

    private final SecretScanner scanner = SecretScanner.standard();

    @Test
    void shouldFindEveryPositiveWithItsExactSpanAndNothingInTheNegatives() {
        List<Corpus.Positive> positives = Corpus.positives();
        List<String> negatives = Corpus.negatives();
        Map<String, int[]> perRule = new TreeMap<>();
        List<String> missed = new ArrayList<>();
        for (Corpus.Positive positive : positives) {
            List<Finding> findings = scanner.scan(positive.text());
            boolean found = findings.stream().anyMatch(f -> f.ruleId().equals(positive.ruleId())
                    && f.start() == positive.start() && f.end() == positive.end());
            int[] counts = perRule.computeIfAbsent(positive.ruleId(), id -> new int[2]);
            counts[0]++;
            if (found) {
                counts[1]++;
            } else {
                missed.add("line " + positive.lineNumber() + " (" + positive.ruleId() + "): got " + findings);
            }
        }
        List<String> falsePositives = new ArrayList<>();
        for (String negative : negatives) {
            List<Finding> findings = scanner.scan(negative);
            if (!findings.isEmpty()) {
                falsePositives.add(findings + " in: " + abbreviate(negative));
            }
        }

        int hits = positives.size() - missed.size();
        System.out.printf("secret corpus: recall %d/%d = %.1f%%, false positives %d/%d = %.1f%%%n", hits, positives.size(),
                100.0 * hits / positives.size(), falsePositives.size(), negatives.size(), 100.0 * falsePositives.size() / negatives.size());
        perRule.forEach((rule, counts) -> System.out.printf("  %-26s %d/%d%n", rule, counts[1], counts[0]));
        assertThat(perRule.keySet()).as("every rule has positives").containsExactlyInAnyOrderElementsOf(scanner.ruleIds());
        assertThat(missed).as("missed positives").isEmpty();
        assertThat(falsePositives).as("false positives").isEmpty();
    }

    private static String abbreviate(String text) {
        return text.length() <= 120 ? text : text.substring(0, 120) + "…";
    }
}
