package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class RedactionTest {

    private final SecretScanner scanner = SecretScanner.standard();
    private final FakeSecrets fake = new FakeSecrets(5);

    @Test
    void shouldReplaceEachFindingByItsRuleIdAndKeepEverythingElse() {
        String token = fake.gitHubToken();
        String password = fake.password();
        String text = "token " + token + "\nDATABASE_URL=postgres://app:" + password + "@db/app\nmail ann@corp.io today";

        String redacted = scanner.redact(text, scanner.scan(text));

        assertThat(redacted).isEqualTo("token [REDACTED:github-token]\nDATABASE_URL=postgres://app:[REDACTED:url-password]@db/app\n"
                + "mail [REDACTED:email] today");
    }

    @Test
    void shouldRedactByScanningWhenNoFindingsAreGiven() {
        assertThat(scanner.redact("SSN 123-45-6789")).isEqualTo("SSN [REDACTED:us-ssn]");
    }

    @Test
    void shouldReturnTheTextUnchangedWhenNothingIsFound() {
        assertThat(scanner.redact("nothing to see here, 42.50 EUR")).isEqualTo("nothing to see here, 42.50 EUR");
    }

    @Test
    void shouldMergeOverlappingFindingsSoNoCharacterOfEitherSurvives() {
        String text = "0123456789abcdef";
        List<Finding> overlapping = List.of(new Finding("b", Finding.Kind.PII, 6, 12), new Finding("a", Finding.Kind.SECRET, 2, 8));

        assertThat(scanner.redact(text, overlapping)).isEqualTo("01[REDACTED:a]cdef");
    }

    @Test
    void shouldRefuseFindingsFromALongerTextWithoutQuotingTheText() {
        String text = "short secret text";
        List<Finding> fromElsewhere = List.of(new Finding("jwt", Finding.Kind.SECRET, 5, 40));

        assertThatThrownBy(() -> scanner.redact(text, fromElsewhere))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jwt")
                .hasMessageNotContaining("short secret text");
    }
}
