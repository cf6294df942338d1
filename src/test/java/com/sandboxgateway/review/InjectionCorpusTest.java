package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * Detection rate over planted instructions (several languages, obfuscated) and false-positive rate over
 * realistic cell values that mention ignoring, systems, instructions, passwords and URLs. The figures
 * are printed for the record; any miss or false positive fails.
 */
class InjectionCorpusTest {

    private final InjectionDetector detector = InjectionDetector.fromRules(InjectionRules.standard());

    @Test
    void shouldFlagEveryPlantedInstructionWithItsCategoryAndNoBenignCell() {
        List<String> planted = ReviewCorpus.lines("injection/planted.txt");
        List<String> benign = ReviewCorpus.lines("injection/benign.txt");
        List<String> missed = new ArrayList<>();
        Map<String, int[]> perCategory = new TreeMap<>();
        for (String line : planted) {
            String category = line.substring(0, line.indexOf('\t'));
            String text = line.substring(line.indexOf('\t') + 1);
            Optional<InjectionMatch> match = detector.find(text);
            int[] counts = perCategory.computeIfAbsent(category, c -> new int[2]);
            counts[0]++;
            if (match.isPresent() && match.get().category().equals(category)) {
                counts[1]++;
            } else {
                missed.add(category + " got " + match + ": " + text);
            }
        }
        List<String> falsePositives = new ArrayList<>();
        for (String text : benign) {
            detector.find(text).ifPresent(match -> falsePositives.add(match.ruleId() + ": " + text));
        }

        int detected = planted.size() - missed.size();
        System.out.printf("injection corpus: detection %d/%d = %.1f%%, false positives %d/%d = %.1f%%%n", detected,
                planted.size(), 100.0 * detected / planted.size(), falsePositives.size(), benign.size(),
                100.0 * falsePositives.size() / benign.size());
        perCategory.forEach((category, counts) -> System.out.printf("  %-15s %d/%d%n", category, counts[1], counts[0]));
        assertThat(planted).hasSizeGreaterThanOrEqualTo(60);
        assertThat(benign).hasSizeGreaterThanOrEqualTo(200);
        assertThat(missed).as("missed planted instructions").isEmpty();
        assertThat(falsePositives).as("false positives").isEmpty();
    }
}
