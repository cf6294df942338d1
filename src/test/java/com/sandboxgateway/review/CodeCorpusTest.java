package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The code corpora: realistic analysis blocks that must raise no flag, and risky blocks whose header
 * {@code # expect: flag, flag(detail)} lists exactly the flags they must raise (a flag given with
 * details must raise exactly those details). The session's allowlist holds {@code pypi.org} only.
 * Prints the false-positive and detection rates.
 */
class CodeCorpusTest {

    private static final Pattern EXPECTED = Pattern.compile("([a-z_0-9]+)(?:\\(([^)]*)\\))?");
    private static final HostPolicy ALLOWLIST = HostPolicy.allowing("pypi.org"::equals);

    private final CodeRiskAnalyzer analyzer = CodeRiskAnalyzer.fromRules(CodeRules.standard());

    @Test
    void shouldRaiseNothingOnBenignBlocksAndExactlyTheExpectedFlagsOnRiskyOnes() {
        List<Path> benign = ReviewCorpus.pythonFiles("code/benign");
        List<Path> risky = ReviewCorpus.pythonFiles("code/risky");
        List<String> falsePositives = new ArrayList<>();
        for (Path file : benign) {
            List<CodeFlag> flags = analyzer.analyze(ReviewCorpus.read(file), ALLOWLIST);
            if (!flags.isEmpty()) {
                falsePositives.add(file.getFileName() + ": " + flags);
            }
        }
        List<String> wrong = new ArrayList<>();
        Map<String, int[]> perFlag = new TreeMap<>();
        for (Path file : risky) {
            String code = ReviewCorpus.read(file);
            Map<String, Set<String>> expected = expectations(code.lines().findFirst().orElse(""));
            List<CodeFlag> flags = analyzer.analyze(code, ALLOWLIST);
            Map<String, Set<String>> actual = new LinkedHashMap<>();
            flags.forEach(flag -> actual.computeIfAbsent(flag.flag(), f -> new TreeSet<>())
                    .add(flag.detail() == null ? "" : flag.detail()));
            boolean ok = actual.keySet().equals(expected.keySet());
            for (var entry : expected.entrySet()) {
                int[] counts = perFlag.computeIfAbsent(entry.getKey(), f -> new int[2]);
                counts[0]++;
                boolean detailsMatch = entry.getValue().isEmpty() || entry.getValue().equals(actual.get(entry.getKey()));
                if (actual.containsKey(entry.getKey()) && detailsMatch) {
                    counts[1]++;
                } else {
                    ok = false;
                }
            }
            if (!ok) {
                wrong.add(file.getFileName() + ": expected " + expected + " got " + flags);
            }
        }

        long expectedFlags = perFlag.values().stream().mapToInt(c -> c[0]).sum();
        long detected = perFlag.values().stream().mapToInt(c -> c[1]).sum();
        System.out.printf("code corpus: false positives %d/%d blocks = %.1f%%, detection %d/%d expected flags = %.1f%%,"
                        + " %d/%d risky blocks exactly right%n", falsePositives.size(), benign.size(),
                100.0 * falsePositives.size() / benign.size(), detected, expectedFlags, 100.0 * detected / expectedFlags,
                risky.size() - wrong.size(), risky.size());
        perFlag.forEach((flag, counts) -> System.out.printf("  %-24s %d/%d%n", flag, counts[1], counts[0]));
        assertThat(benign).hasSizeGreaterThanOrEqualTo(40);
        assertThat(risky).hasSizeGreaterThanOrEqualTo(40);
        assertThat(falsePositives).as("flags on benign blocks").isEmpty();
        assertThat(wrong).as("risky blocks without exactly their expected flags").isEmpty();
    }

    private static Map<String, Set<String>> expectations(String header) {
        assertThat(header).as("first line of a risky block").startsWith("# expect:");
        Map<String, Set<String>> expected = new TreeMap<>();
        Matcher matcher = EXPECTED.matcher(header.substring("# expect:".length()));
        while (matcher.find()) {
            Set<String> details = expected.computeIfAbsent(matcher.group(1), f -> new TreeSet<>());
            if (matcher.group(2) != null) {
                details.add(matcher.group(2));
            }
        }
        return expected;
    }
}
