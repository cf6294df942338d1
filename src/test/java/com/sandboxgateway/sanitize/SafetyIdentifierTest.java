package com.sandboxgateway.sanitize;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.test.context.TestPropertySource;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

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

    @Test
    void shouldLeaveTheBodyAsSentWhenOffAndRefuseToStartWithoutAKey() {
        ObjectNode body = JsonMapper.builder().build().createObjectNode().put("model", "gpt-4.1").put("safety_identifier", "mine");
        Exchange exchange = new Exchange("gwreq_1", new Principal("alice", "analytics", Set.of("user")),
                new RouteMatch(Route.RESPONSES_CREATE, Map.of()), "/v1/responses", null, null, null,
                new RequestBody.Json(body, new byte[0]));

        new SafetyIdentifier(new SafetyIdentifierProperties(SafetyIdentifierProperties.Mode.OFF), policy(Map.of())).apply(exchange);

        assertThat(exchange.bodyReplaced()).isFalse();
        assertThat(body.path("safety_identifier").asString()).isEqualTo("mine");
        assertThatThrownBy(() -> new SafetyIdentifier(new SafetyIdentifierProperties(SafetyIdentifierProperties.Mode.HMAC_USER),
                policy(Map.of("gateway.policy.org.sanitization.pseudonymization-key", ""))))
                .hasMessageContaining("safety-identifier").hasMessageContaining("pseudonymization-key");
    }

    private static PolicyProperties policy(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("gateway.policy", PolicyProperties.class);
    }

    /** HMAC-SHA256 of the purpose and the user under the test key, first 16 hex characters, computed apart from the gateway. */
    private static String expected(String user) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(("safety_identifier:" + user).getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }
}
