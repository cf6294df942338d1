package com.sandboxgateway.policy.input;

import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import com.openai.core.JsonValue;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** With {@code unknown-input: allow}, what the gateway does not govern goes upstream, and the audit says so. */
@TestPropertySource(properties = "gateway.policy.org.unknown-input=allow")
class UnknownInputAllowedTest extends GatewayIntegrationTest {


    @Test
    void shouldForwardAnUngovernedItemAndFlagItsAuditRecord() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        String label = unique("crm");
        Map<String, Object> mcpCall = Map.of("type", "mcp_call", "id", "mcp_1", "server_label", label, "name", "lookup",
                "arguments", "{}", "output", "ok");

        var answer = sdk(CAROL_KEY).responses().withRawResponse().create(ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("input", JsonValue.from(List.of(Map.of("role", "user", "content", "hi"), mcpCall)))
                .build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses")).withRequestBody(equalToJson(
                "{\"input\":[{},{\"type\":\"mcp_call\",\"server_label\":\"" + label + "\"}]}", true, true)));
        String requestId = answer.headers().values("x-request-id").getFirst();
        List<AuditRecord> records = audited(record -> record.kind() == AuditRecord.Kind.UNGOVERNED_INPUT
                && requestId.equals(record.requestId()));
        assertThat(records).singleElement().satisfies(record -> {
            assertThat(record.flags()).containsExactly("ungoverned_input");
            assertThat(record.details()).contains("\"path\":\"input[1]\"").contains("\"type\":\"mcp_call\"")
                    .doesNotContain(label);
        });
    }
}
