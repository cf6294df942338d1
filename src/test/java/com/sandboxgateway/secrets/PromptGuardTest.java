package com.sandboxgateway.secrets;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.PlantedSecrets;

class PromptGuardTest {

    private static final SecretScanner SCANNER = SecretScanner.standard();

    private final List<Object> events = new ArrayList<>();
    private final String token = PlantedSecrets.githubToken();

    @Test
    void shouldRefuseACredentialNamingItsPlaceWithoutShowingIt() {
        Exchange exchange = request();

        Decision.Reject refusal = assertRefused(guard(PolicyProperties.SecretsAction.BLOCK).apply(exchange), ErrorCode.SECRET_DETECTED,
                "input[0].content[1].text", "");
        assertThat(refusal.message()).doesNotContain(token);
        assertThat(exchange.bodyReplaced()).isFalse();
        assertThat(events).singleElement().isInstanceOfSatisfying(SensitiveDataFound.class,
                found -> assertThat(found.handling()).isEqualTo("blocked"));
    }

    @Test
    void shouldRedactTheCredentialInTheBodyWhenThePolicySaysSo() {
        Exchange exchange = request();

        assertThat(guard(PolicyProperties.SecretsAction.REDACT).apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isTrue();
        String text = exchange.json().path("input").get(0).path("content").get(1).path("text").asString();
        assertThat(text).doesNotContain(token).contains("[REDACTED:").startsWith("use ");
        assertThat(events).singleElement().isInstanceOf(SensitiveDataFound.class);
    }

    @Test
    void shouldLetCleanTextThroughUntouched() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, "{\"model\":\"gpt-5\",\"input\":\"plot revenue by month\"}");

        assertThat(guard(PolicyProperties.SecretsAction.BLOCK).apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isFalse();
        assertThat(events).isEmpty();
    }

    private Exchange request() {
        return Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_text","text":"hi"},
                 {"type":"input_text","text":"use %s to clone"}]}]}""".formatted(token));
    }

    private PromptGuard guard(PolicyProperties.SecretsAction action) {
        return new PromptGuard(() -> new TextGuard(SCANNER, action, PolicyProperties.PiiAction.REPORT, null), events::add,
                Clock.systemUTC());
    }
}
