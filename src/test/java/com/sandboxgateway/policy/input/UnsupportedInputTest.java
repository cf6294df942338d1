package com.sandboxgateway.policy.input;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** What the gateway does not govern is refused by default, naming where it sat and how to allow it. */
@TestPropertySource(properties = "gateway.policy.org.tools.allowed=code_interpreter,function,web_search")
class UnsupportedInputTest extends GatewayIntegrationTest {

    @Test
    void shouldRefuseAnUngovernedInputItemNamingItsPathAndType() {
        assertRefused(List.of(Map.of("role", "user", "content", "look this up"),
                        Map.of("type", "mcp_call", "id", "mcp_1", "server_label", "crm", "name", "lookup", "arguments", "{}",
                                "output", "customer 4711, ssn 123-45-6789")),
                "input[1]", "mcp_call");
    }

    @Test
    void shouldRefuseAnUnknownContentPartAndAnUnknownCodeOutput() {
        assertRefused(List.of(Map.of("role", "user", "content", List.of(
                        Map.of("type", "input_text", "text", "hi"), Map.of("type", "input_audio", "data", "UklGRg==")))),
                "input[0].content[1]", "input_audio");
        assertRefused(List.of(Map.of("type", "code_interpreter_call", "status", "completed", "code", "print(1)",
                        "outputs", List.of(Map.of("type", "files", "files", List.of())))),
                "input[0].outputs[0]", "files");
    }

    @Test
    void shouldRefuseAnUnknownAnnotationOfReplayedText() {
        assertRefused(List.of(Map.of("type", "message", "role", "assistant", "content", List.of(Map.of("type", "output_text",
                        "text", "see the sheet", "annotations", List.of(Map.of("type", "sheet_citation", "sheet_id", "sh_1",
                                "note", "customer 123-45-6789")))))),
                "input[0].content[0].annotations[0]", "sheet_citation");
        assertRefused(List.of(Map.of("type", "code_interpreter_call", "status", "completed", "code", "plot()",
                        "outputs", List.of(Map.of("type", "image", "url", Map.of("note", "customer 123-45-6789"))))),
                "input[0].outputs[0].url", "object");
    }

    @Test
    void shouldRefuseValuesOfAShapeNothingWouldRead() {
        assertRefused(List.of(Map.of("role", "user", "content", List.of(Map.of("type", "input_text", "text",
                        Map.of("note", "customer 123-45-6789"))))), "input[0].content[0].text", "object");
        assertRefused(List.of(Map.of("role", "user", "content", Map.of("text", "customer 123-45-6789"))),
                "input[0].content", "object");
        assertRefused(List.of("customer 123-45-6789"), "input[0]", "string");
    }

    @Test
    void shouldRefuseAnUngovernedToolEvenWhenTheTeamMayUseIt() {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .putAdditionalBodyProperty("tools", JsonValue.from(List.of(Map.of("type", "code_interpreter", "container",
                        Map.of("type", "auto")), Map.of("type", "web_search", "user_location", Map.of("city", "Zurich")))))
                .build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("unsupported_input");
                    assertThat(e.param()).hasValue("tools[1]");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    private void assertRefused(List<Object> input, String path, String type) {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("input", JsonValue.from(input)).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("unsupported_input");
                    assertThat(e.param()).hasValue(path);
                    assertThat(e.getMessage()).contains(path).contains("'" + type + "'")
                            .contains("gateway.policy.org.unknown-input: allow").doesNotContain("123-45-6789");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }
}
