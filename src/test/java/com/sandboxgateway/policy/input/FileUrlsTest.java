package com.sandboxgateway.policy.input;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.sandboxgateway.support.PlantedSecrets.githubToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputContent;
import com.openai.models.responses.ResponseInputFile;
import com.openai.models.responses.ResponseInputImage;
import com.openai.models.responses.ResponseInputItem;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code input_file.file_url} (and a remote {@code input_image.image_url} or replayed code-interpreter
 * image {@code url}): refused unless its host is
 * listed; from a listed host the gateway fetches the file itself (WireMock stands in for the outside file
 * server), sanitizes it and sends it inline.
 */
class FileUrlsTest extends GatewayIntegrationTest {

    private static final String ORDERS = "order_id,customer_ssn,amount\n1,123-45-6789,9.50\n";
    private static final WireMockServer fileHost = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));

    static {
        fileHost.start();
    }

    @DynamicPropertySource
    static void fetchFrom(DynamicPropertyRegistry registry) {
        // Loopback must be listed as the address itself; "localhost" is listed too, to show a name that
        // resolves to loopback is still refused.
        registry.add("gateway.policy.org.files.file-urls.fetch-from[0]", () -> "http://127.0.0.1:" + fileHost.port());
        registry.add("gateway.policy.org.files.file-urls.fetch-from[1]", () -> "http://localhost:" + fileHost.port());
        registry.add("gateway.policy.org.files.file-urls.fetch-from[2]", () -> "files.example.com");
    }

    @BeforeEach
    void resetFileHost() {
        fileHost.resetAll();
    }

    @Test
    void shouldRefuseAFileUrlOnAHostNotListedPointingToTheUploadRoute() {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withFileUrl("https://exports.example.net/orders.csv")))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("file_url_not_allowed");
                    assertThat(e.param()).hasValue("input[0].content[1].file_url");
                    assertThat(e.getMessage()).contains("POST /v1/files");
                });
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withFileUrl("http://files.example.com/orders.csv")))
                .as("a host listed without a scheme is https only")
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.code()).hasValue("file_url_not_allowed"));
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldFetchSanitizeAndInlineAFileFromAListedHost() {
        fileHost.stubFor(get("/exports/orders.csv").willReturn(aResponse().withHeader("Content-Type", "text/csv; charset=utf-8")
                .withBody(ORDERS)));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        var answer = sdk(ALICE_KEY).responses().withRawResponse().create(
                withFileUrl("http://127.0.0.1:" + fileHost.port() + "/exports/orders.csv"));

        assertThat(answer.headers().values("X-Gateway-Sanitized")).singleElement().asString().contains("dropped=customer_ssn");
        JsonNode part = sentPart();
        assertThat(part.has("file_url")).isFalse();
        assertThat(part.path("filename").asString()).isEqualTo("orders.csv");
        String data = part.path("file_data").asString();
        assertThat(data).startsWith("data:text/csv;base64,");
        assertThat(new String(Base64.getDecoder().decode(data.substring(data.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo("order_id,amount\n1,9.50\n");
    }

    @Test
    void shouldRefuseAListedNameThatResolvesToLoopback() {
        fileHost.stubFor(get("/orders.csv").willReturn(aResponse().withBody(ORDERS)));

        assertNotAllowed("http://localhost:" + fileHost.port() + "/orders.csv", "loopback");
        assertThat(fileHost.getAllServeEvents()).isEmpty();
    }

    @Test
    void shouldRefuseARedirectToAnotherHost() {
        fileHost.stubFor(get("/moved.csv").willReturn(aResponse().withStatus(302)
                .withHeader("Location", "http://localhost:" + fileHost.port() + "/orders.csv")));
        fileHost.stubFor(get("/orders.csv").willReturn(aResponse().withBody(ORDERS)));

        assertNotAllowed("http://127.0.0.1:" + fileHost.port() + "/moved.csv", "redirects to another host");
    }

    @Test
    void shouldRefuseAFileLargerThanTheUploadCapWhileReading() {
        fileHost.stubFor(get("/big.csv").willReturn(aResponse().withBody("a,b\n" + "1,2\n".repeat(1_500_000))));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withFileUrl("http://127.0.0.1:" + fileHost.port() + "/big.csv")))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(413);
                    assertThat(e.code()).hasValue("file_too_large");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldTreatAnImageUrlLikeAFileUrlAndAnInlineImageLikeAnUpload() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        fileHost.stubFor(get("/charts/q3.png").willReturn(aResponse().withHeader("Content-Type", "image/png").withBody(png)));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withImage("https://cdn.example.net/q3.png")))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("file_url_not_allowed");
                    assertThat(e.param()).hasValue("input[0].content[1].image_url");
                });
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withImage("data:image/gif;base64,R0lGODlhAQABAAAAACw=")))
                .as("gif is not among the accepted file types")
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.code()).hasValue("unsupported_file_type");
                    assertThat(e.param()).hasValue("input[0].content[1].image_url");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));

        sdk(ALICE_KEY).responses().create(withImage("http://127.0.0.1:" + fileHost.port() + "/charts/q3.png"));

        assertThat(sentPart().path("image_url").asString())
                .isEqualTo("data:image/png;base64," + Base64.getEncoder().encodeToString(png));
    }

    @Test
    void shouldTreatAReplayedCodeInterpreterImageLikeAnImageUrl() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        fileHost.stubFor(get("/charts/q3.png").willReturn(aResponse().withHeader("Content-Type", "image/png").withBody(png)));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withCodeImage("https://cdn.example.net/q3.png")))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("file_url_not_allowed");
                    assertThat(e.param()).hasValue("input[0].outputs[0].url");
                });
        String token = githubToken();
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withCodeImage("data:image/png;base64,"
                + Base64.getEncoder().encodeToString(("note\nclone with " + token + "\n").getBytes(StandardCharsets.UTF_8)))))
                .as("an inline image is judged by what it holds: here text with a credential")
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("secret_detected");
                    assertThat(e.param()).hasValue("input[0].outputs[0].url");
                    assertThat(e.getMessage()).doesNotContain(token);
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));

        sdk(ALICE_KEY).responses().create(withCodeImage("http://127.0.0.1:" + fileHost.port() + "/charts/q3.png"));

        var requests = openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses")));
        assertThat(requests).hasSize(1);
        assertThat(JsonMapper.builder().build().readTree(requests.getFirst().getBodyAsString()).at("/input/0/outputs/0/url").asString())
                .isEqualTo("data:image/png;base64," + Base64.getEncoder().encodeToString(png));
    }

    /** A replayed code-interpreter call (without its item id) whose output is an image. */
    private static ResponseCreateParams withCodeImage(String url) {
        return ResponseCreateParams.builder().model("gpt-4.1").putAdditionalBodyProperty("input", JsonValue.from(List.of(Map.of(
                "type", "code_interpreter_call", "status", "completed", "code", "plot()",
                "outputs", List.of(Map.of("type", "image", "url", url)))))).build();
    }

    private static ResponseCreateParams withImage(String url) {
        return ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(List.of(ResponseInputItem.ofMessage(
                ResponseInputItem.Message.builder().role(ResponseInputItem.Message.Role.USER)
                        .addInputTextContent("Describe the chart")
                        .addContent(ResponseInputContent.ofInputImage(ResponseInputImage.builder()
                                .detail(ResponseInputImage.Detail.AUTO).imageUrl(url).build()))
                        .build()))).build();
    }

    private void assertNotAllowed(String url, String why) {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(withFileUrl(url)))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("file_url_not_allowed");
                    assertThat(e.getMessage()).contains(why);
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    private static ResponseCreateParams withFileUrl(String url) {
        return ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(List.of(ResponseInputItem.ofMessage(
                ResponseInputItem.Message.builder().role(ResponseInputItem.Message.Role.USER)
                        .addInputTextContent("Total the orders")
                        .addContent(ResponseInputContent.ofInputFile(ResponseInputFile.builder().fileUrl(url).build()))
                        .build()))).build();
    }

    private static JsonNode sentPart() {
        var requests = openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses")));
        assertThat(requests).hasSize(1);
        return JsonMapper.builder().build().readTree(requests.getFirst().getBodyAsString()).at("/input/0/content/1");
    }
}
