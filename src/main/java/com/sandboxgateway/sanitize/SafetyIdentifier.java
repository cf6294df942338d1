package com.sandboxgateway.sanitize;

import org.springframework.stereotype.Component;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestStep;

/**
 * Sets {@code safety_identifier} on every {@code POST /v1/responses} to a keyed hash of the calling user, so
 * OpenAI's abuse enforcement can act on one user instead of the whole organisation's key. The hash is the
 * pseudonymizer's (HMAC-SHA256 with the pseudonymization key, 16 hex characters; OpenAI asks for a hashed
 * value of at most 64) over the user with a purpose prefix, so it never equals a column pseudonym of the
 * same name. A value the client sent is replaced: no app can speak for another user.
 */
@Component
public final class SafetyIdentifier implements RequestStep {

    private static final String PURPOSE = "safety_identifier:";

    private final Pseudonymizer pseudonymizer;

    SafetyIdentifier(SafetyIdentifierProperties properties, PolicyProperties policy) {
        if (properties.safetyIdentifier() == SafetyIdentifierProperties.Mode.OFF) {
            this.pseudonymizer = null;
            return;
        }
        this.pseudonymizer = Pseudonymizer.fromPolicy(policy.org().sanitization(), false);
        if (pseudonymizer == null) {
            // Two records' values together: the properties record alone cannot tell.
            throw new InvalidSettingException("gateway.policy.org.safety-identifier", "hmac-user",
                    "it needs gateway.policy.org.sanitization.pseudonymization-key, which is empty",
                    "Set the pseudonymization key (e.g. GATEWAY_PSEUDONYM_KEY), or set safety-identifier to \"off\".");
        }
    }

    @Override
    public Decision apply(Exchange exchange) {
        if (pseudonymizer == null || exchange.json() == null) {
            return Decision.PROCEED;
        }
        exchange.json().put("safety_identifier", pseudonymizer.pseudonym(PURPOSE + exchange.principal().user()));
        exchange.jsonEdited();
        return Decision.PROCEED;
    }
}
