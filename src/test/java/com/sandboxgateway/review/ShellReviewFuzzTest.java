package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Shell commands from fuzzed text through the shell lexer and the shell review: none throws, whatever the
 * text; no simple command is empty, and the flags are sorted, distinct and within the rule file's limit. Replays {@code ShellReviewFuzzTestInputs/} in every build;
 * {@code JAZZER_FUZZ=1} fuzzes (README, Fuzzing).
 */
class ShellReviewFuzzTest {

    private static final CodeRiskAnalyzer ANALYZER = CodeRiskAnalyzer.fromRules(CodeRules.standard());

    @FuzzTest(maxDuration = "60s")
    void anyCommandIsLexedAndReviewed(FuzzedDataProvider data) {
        boolean network = data.consumeBoolean();
        String command = data.consumeRemainingAsString();

        ShellScript script = ShellLexer.lex(command);
        for (ShellScript.Command simple : script.allCommands()) {
            assertThat(!simple.words().isEmpty() || !simple.redirects().isEmpty() || simple.input() != null)
                    .as("no empty command").isTrue();
        }

        List<CodeFlag> flags = ANALYZER.analyzeShell(List.of(command), network ? HostPolicy.allowing("pypi.org"::equals) : null);
        assertThat(flags).hasSizeLessThanOrEqualTo(32);
        assertThat(flags).isSorted();
        assertThat(new HashSet<>(flags)).hasSameSizeAs(flags);
    }
}
