package com.sandboxgateway.policy.input;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.sandboxgateway.api.GatewayException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Request bodies from fuzzed JSON, walked as a Responses, Conversations or Containers request: each is
 * mapped to its places or refused with a typed {@link GatewayException} that names where it breaks,
 * never another exception. Replays {@code RequestWalkFuzzTestInputs/} in every build; {@code JAZZER_FUZZ=1}
 * fuzzes (README, Fuzzing).
 */
class RequestWalkFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @FuzzTest(maxDuration = "60s")
    void bodiesAreWalkedOrRefused(FuzzedDataProvider data) {
        int route = data.consumeInt(0, 2);
        JsonNode body;
        try {
            body = JSON.readTree(data.consumeRemainingAsBytes());
        } catch (JacksonException notJson) {
            return;
        }
        if (!(body instanceof ObjectNode object)) {
            return;
        }
        try {
            InputPlaces places = switch (route) {
                case 0 -> RequestWalk.ofResponseRequest(object);
                case 1 -> RequestWalk.ofConversationRequest(object);
                default -> RequestWalk.ofContainerRequest(object);
            };
            assertThat(places).isNotNull();
        } catch (GatewayException refused) {
            assertThat(refused.code()).isNotNull();
            assertThat(refused.getMessage()).isNotBlank();
        }
    }
}
