package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Code blocks from fuzzed text through the Python (and IPython shell) lexer, the code model and every
 * review rule: none throws, whatever the text; the lexer's logical lines end in a NEWLINE token, and the
 * analyzer's flags are sorted, distinct and within the rule file's limit. Replays
 * {@code CodeReviewFuzzTestInputs/} in every build; {@code JAZZER_FUZZ=1} fuzzes (README, Fuzzing).
 */
class CodeReviewFuzzTest {

    private static final CodeRiskAnalyzer ANALYZER = CodeRiskAnalyzer.fromRules(CodeRules.standard());

    @FuzzTest(maxDuration = "60s")
    void anyCodeIsLexedAndReviewed(FuzzedDataProvider data) {
        boolean network = data.consumeBoolean();
        String code = data.consumeRemainingAsString();

        PythonSource source = PythonLexer.lex(code);
        List<PythonToken> tokens = source.tokens();
        if (!tokens.isEmpty()) {
            assertThat(tokens.getLast().kind()).isEqualTo(PythonToken.Kind.NEWLINE);
        }
        CodeModel model = CodeModel.of(tokens, Map.of());
        for (CodeModel.Reference reference : model.references()) {
            assertThat(reference.start()).isBetween(0, tokens.size());
            assertThat(reference.end()).isBetween(reference.start(), tokens.size());
        }

        List<CodeFlag> flags = ANALYZER.analyze(code, network ? HostPolicy.allowing("pypi.org"::equals) : null);
        assertThat(flags).hasSizeLessThanOrEqualTo(32);
        assertThat(flags).isSorted();
        assertThat(new HashSet<>(flags)).hasSameSizeAs(flags);
    }
}
