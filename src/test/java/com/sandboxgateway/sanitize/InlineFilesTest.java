package com.sandboxgateway.sanitize;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.FileSanitizers;
import com.sandboxgateway.support.PlantedSecrets;
import com.sandboxgateway.support.Policies;

class InlineFilesTest {

    private final List<Object> events = new ArrayList<>();
    private final InlineFiles step = new InlineFiles(FileSanitizers.of(Policies.of("org.sanitization.drop-columns=email"), events));

    @Test
    void shouldSendAnInlineTableOnRewrittenAndReEncoded() {
        Exchange exchange = request("data:text/csv;base64," + base64("region,email\nnorth,a@example.com\n"));

        assertThat(step.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isTrue();
        String data = fileData(exchange);
        assertThat(data).startsWith("data:text/csv;base64,");
        assertThat(decoded(data.substring(data.indexOf(',') + 1))).contains("region").contains("north").doesNotContain("a@example.com");
        assertThat(exchange.responseHeaders()).containsKey(GatewayHeaders.SANITIZED);
    }

    @Test
    void shouldRefuseAnInlineFileHoldingACredentialNamingItsPlace() {
        Exchange exchange = request(base64("notes\n" + PlantedSecrets.githubToken() + "\n"));

        assertRefused(step.apply(exchange), ErrorCode.SECRET_DETECTED, "input[0].content[1].file_data", "input[0].content[1].file_data: ");
    }

    @Test
    void shouldRefuseDataThatIsNotBase64() {
        Exchange exchange = request("data:text/csv,region");

        assertRefused(step.apply(exchange), ErrorCode.INVALID_REQUEST, "input[0].content[1].file_data", "not base64-encoded");
        assertThat(exchange.bodyReplaced()).isFalse();
    }

    private static Exchange request(String fileData) {
        return Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_text","text":"sum it"},
                 {"type":"input_file","filename":"sales.csv","file_data":"%s"}]}]}""".formatted(fileData));
    }

    private static String fileData(Exchange exchange) {
        return exchange.json().path("input").get(0).path("content").get(1).path("file_data").asString();
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String decoded(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
