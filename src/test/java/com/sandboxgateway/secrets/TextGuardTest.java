package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.config.PolicyProperties.PiiAction;
import com.sandboxgateway.config.PolicyProperties.SecretsAction;

class TextGuardTest {

    private static final String EMAIL = "jane.roe@example.org";

    @Test
    void shouldPseudonymizePersonalDataInFreeText() {
        TextGuard guard = new TextGuard(SecretScanner.standard(), SecretsAction.BLOCK, PiiAction.PSEUDONYMIZE, value -> "p-" + value.length());

        CharSequence out = guard.guard("write to " + EMAIL + " today", () -> "input", true);

        assertThat(out.toString()).isEqualTo("write to p-" + EMAIL.length() + " today");
        assertThat(guard.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.ruleId()).isEqualTo("email");
            assertThat(finding.location()).isEqualTo("input");
        });
        assertThat(guard.handling()).isEqualTo("personal data pseudonymized");
    }

    @Test
    void shouldBlockPersonalDataWhenThePolicySaysSoWithoutEchoingIt() {
        TextGuard guard = new TextGuard(SecretScanner.standard(), SecretsAction.BLOCK, PiiAction.BLOCK, null);

        assertThatThrownBy(() -> guard.guard("ssn 123-45-6789", () -> "file line 7 column notes", true))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.PII_DETECTED);
                    assertThat(e.getMessage()).contains("file line 7 column notes").contains("us-ssn").doesNotContain("123-45-6789");
                });
    }

    @Test
    void shouldLookOnlyForCredentialsWhereThePolicyAsksSo() {
        TextGuard guard = new TextGuard(SecretScanner.standard(), SecretsAction.REDACT, PiiAction.BLOCK, null);
        String token = SecretGuardrailsTest.githubToken();

        CharSequence out = guard.guard(EMAIL + " " + token, () -> "domain_secrets", false);

        assertThat(out.toString()).isEqualTo(EMAIL + " [REDACTED:github-token]");
        assertThat(guard.handling()).isEqualTo("secrets redacted");
    }

    @Test
    void shouldReturnTheRefusalRatherThanThrowWhenScanning() {
        TextGuard guard = new TextGuard(SecretScanner.standard(), SecretsAction.BLOCK, PiiAction.REPORT, null);

        TextGuard.Guarded guarded = guard.scan("key " + SecretGuardrailsTest.githubToken(), () -> "instructions", true);

        assertThat(guarded).isInstanceOfSatisfying(TextGuard.Guarded.Blocked.class, blocked -> {
            assertThat(blocked.refusal().code()).isEqualTo(ErrorCode.SECRET_DETECTED);
            assertThat(blocked.refusal().message()).contains("instructions").contains("github-token")
                    .doesNotContain(SecretGuardrailsTest.githubToken());
        });
    }
}
