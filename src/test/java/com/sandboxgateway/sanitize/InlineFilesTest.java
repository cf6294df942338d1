package com.sandboxgateway.sanitize;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.openai.errors.BadRequestException;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputFile;
import com.openai.models.responses.ResponseInputItem;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.json.JsonMapper;

/** Files sent inline in a response request meet the same rules as uploads: an app cannot route around them. */
class InlineFilesTest extends GatewayIntegrationTest {

    private static final String ORDERS = "order_id,customer_id,customer_ssn,amount\n1,C-1,123-45-6789,9.50\n";

    @Test
    void shouldSendOnlyTheSanitizedFileUpstream() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        var answer = sdk(ALICE_KEY).responses().withRawResponse().create(withFile(
                "data:text/csv;base64," + base64(ORDERS), "orders.csv"));

        assertThat(answer.headers().values("X-Gateway-Sanitized"))
                .containsExactly("format=csv; dropped=customer_ssn; pseudonymized=customer_id; rows=1");
        String sent = sentFileData();
        assertThat(sent).startsWith("data:text/csv;base64,");
        assertThat(new String(Base64.getDecoder().decode(sent.substring(sent.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo("order_id,customer_id,amount\n1," + pseudonym("C-1") + ",9.50\n");
    }

    @Test
    void shouldRefuseAnInlineFileHoldingACredentialWithoutSendingAnything() {
        String token = "ghp_" + new SecureRandom().ints(36, 0, 62)
                .mapToObj(i -> String.valueOf("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".charAt(i)))
                .reduce("", String::concat);

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withFile(base64("id,notes\n1,use " + token + "\n"), "t.csv")))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("secret_detected");
                    assertThat(e.param()).hasValue("input[0].content[1].file_data");
                    assertThat(e.getMessage()).doesNotContain(token);
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldPassABinaryFileUnchangedAndRefuseAnUnknownType() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        String pdf = base64("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n");

        sdk(ALICE_KEY).responses().create(withFile(pdf, "report.pdf"));

        assertThat(sentFileData()).isEqualTo(pdf);
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withFile(base64("x"), "tool.exe")))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(415);
                    assertThat(e.code()).hasValue("unsupported_file_type");
                });
    }

    private static ResponseCreateParams withFile(String fileData, String filename) {
        ResponseInputItem.Message message = ResponseInputItem.Message.builder().role(ResponseInputItem.Message.Role.USER)
                .addInputTextContent("Chart the revenue.")
                .addContent(ResponseInputFile.builder().fileData(fileData).filename(filename).build()).build();
        return ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(List.of(ResponseInputItem.ofMessage(message))).build();
    }

    private static String sentFileData() {
        List<LoggedRequest> sent = openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses")));
        assertThat(sent).hasSize(1);
        return JsonMapper.builder().build().readTree(sent.getFirst().getBodyAsString())
                .path("input").get(0).path("content").get(1).path("file_data").asString();
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String pseudonym(String value) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("test-pseudonymization-key-0001".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }
}
