package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Text from fuzzed bytes through every rule of the standard scanner: findings lie inside the text, in
 * order, never overlapping, and redaction leaves none of a finding's text behind. That the work stays
 * linear in the input is {@link AdversarialInputTest}'s part (megabyte inputs; a quadratic rule would not
 * finish). Replays {@code SecretScannerFuzzTestInputs/} in every build; {@code JAZZER_FUZZ=1} fuzzes
 * (README, Fuzzing).
 */
class SecretScannerFuzzTest {

    private static final SecretScanner SCANNER = SecretScanner.standard();

    @FuzzTest(maxDuration = "60s")
    void findingsAreOrderedDisjointAndRedacted(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        List<Finding> findings = SCANNER.scan(text);
        int previousEnd = 0;
        for (Finding finding : findings) {
            assertThat(finding.start()).isGreaterThanOrEqualTo(previousEnd);
            assertThat(finding.end()).isGreaterThan(finding.start()).isLessThanOrEqualTo(text.length());
            previousEnd = finding.end();
        }
        String redacted = SCANNER.redact(text, findings);
        for (Finding finding : findings) {
            String value = text.substring(finding.start(), finding.end());
            if (value.length() >= 12 && text.indexOf(value) == text.lastIndexOf(value)) {
                assertThat(redacted).doesNotContain(value);
            }
        }
        assertThat(redacted).hasSizeLessThanOrEqualTo(text.length() + findings.size() * ("[REDACTED:]".length() + 32));
    }
}
