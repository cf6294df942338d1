package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.Policies;

/** The step alone; {@link SafetyIdentifierTest} checks what OpenAI receives and the value against an independent HMAC. */
class SafetyIdentifierStepTest {

    private final SafetyIdentifier step = new SafetyIdentifier(new SafetyIdentifierProperties(SafetyIdentifierProperties.Mode.HMAC_USER),
            Policies.of());

    @Test
    void shouldReplaceTheClientsValueWithTheCallersKeyedHash() {
        Exchange claimed = Exchanges.json(Route.RESPONSES_CREATE, "{\"model\":\"gpt-5\",\"input\":\"hi\",\"safety_identifier\":\"carol\"}");
        Exchange unset = Exchanges.json(Route.RESPONSES_CREATE, "{\"model\":\"gpt-5\",\"input\":\"hi\"}");

        assertThat(step.apply(claimed)).isEqualTo(Decision.PROCEED);
        assertThat(step.apply(unset)).isEqualTo(Decision.PROCEED);

        String identifier = claimed.json().path("safety_identifier").asString();
        assertThat(identifier).matches("[0-9a-f]{16}").isEqualTo(unset.json().path("safety_identifier").asString());
        assertThat(claimed.bodyReplaced()).isTrue();
    }
}
