package com.sandboxgateway.sanitize;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.policy.org.safety-identifier}: whether {@code POST /v1/responses} carries OpenAI's
 * {@code safety_identifier} for the calling user.
 *
 * @param safetyIdentifier {@code hmac-user} (default): a keyed hash of the user, replacing any value the client sent;
 *        {@code off}: the client's body is left as it is
 */
@ConfigurationProperties("gateway.policy.org")
record SafetyIdentifierProperties(@DefaultValue("hmac-user") Mode safetyIdentifier) {

    enum Mode { HMAC_USER, OFF }
}
