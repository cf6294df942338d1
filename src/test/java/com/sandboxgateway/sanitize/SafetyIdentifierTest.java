package com.sandboxgateway.sanitize;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.json.JsonMapper;

/** {@code safety_identifier} on every response request: a keyed hash of the caller, whatever the client sent. */
@TestPropertySource(properties = "gateway.policy.org.safety-identifier=hmac-user")
class SafetyIdentifierTest extends GatewayIntegrationTest {

    /** {@code gateway.policy.org.sanitization.pseudonymization-key} of the test profile. */
    private static final String KEY = "test-pseudonymization-key-0001";

    @Test
    void shouldSendAKeyedHashOfTheUserInsteadOfTheClientsValue() throws Exception {
        createdResponse(ALICE_KEY, unique("resp_"));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .safetyIdentifier("carol").build());
        sdk(CAROL_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi").build());

        List<LoggedRequest> sent = openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses")));
        assertThat(sent).hasSize(3);
        List<String> identifiers = sent.stream().map(request -> JsonMapper.builder().build()
                .readTree(request.getBodyAsString()).path("safety_identifier").asString()).toList();
        assertThat(identifiers).containsExactly(expected("alice"), expected("alice"), expected("carol"));
        assertThat(identifiers.getFirst()).hasSizeLessThanOrEqualTo(64).doesNotContain("alice");
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses"))
                .withRequestBody(matchingJsonPath("$.input", equalTo("hi")))
                .withRequestBody(matchingJsonPath("$.safety_identifier", equalTo(expected("carol")))));
    }

    /** HMAC-SHA256 of the purpose and the user under the test key, first 16 hex characters, computed apart from the gateway. */
    private static String expected(String user) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(("safety_identifier:" + user).getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }
}
