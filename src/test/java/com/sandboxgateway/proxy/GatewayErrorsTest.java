package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import com.github.tomakehurst.wiremock.http.Fault;
import com.openai.errors.InternalServerException;
import com.openai.errors.UnauthorizedException;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class GatewayErrorsTest extends GatewayIntegrationTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void shouldRefuseAnUnknownKeyWithoutCallingUpstream() {
        assertThatThrownBy(() -> sdk("sk-not-a-gateway-key").files().list())
                .isInstanceOfSatisfying(UnauthorizedException.class, e -> {
                    assertThat(e.code()).hasValue("invalid_api_key");
                    assertThat(e.type()).hasValue("invalid_request_error");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseAMissingKeyEvenOnUnknownRoutes() throws Exception {
        HttpResponse<String> answer = raw(HttpRequest.newBuilder().GET(), "/v1/models");

        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(error(answer).path("code").asString()).isEqualTo("invalid_api_key");
    }

    @Test
    void shouldRefuseRoutesOutsideTheCodeInterpreterSurface() throws Exception {
        for (String path : new String[] {"/v1/chat/completions", "/v1/models", "/v1/files/file-1/extra", "/v1/files/file.1",
                "/v1/responses/resp_1/input_items", "/v1/files/"}) {
            HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).GET(), path);

            assertThat(answer.statusCode()).as(path).isEqualTo(404);
            JsonNode error = error(answer);
            assertThat(error.path("code").asString()).isEqualTo("route_not_allowed");
            assertThat(error.has("param")).isTrue();
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseUnparseableJsonWithoutEchoingIt() throws Exception {
        HttpResponse<String> answer = raw(HttpRequest.newBuilder()
                .header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"input\": sk-proj-abcdef0123456789}")), "/v1/responses");

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(error(answer).path("code").asString()).isEqualTo("invalid_request");
        assertThat(answer.body()).doesNotContain("sk-proj");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseAnUploadThatIsNotMultipart() throws Exception {
        HttpResponse<String> answer = raw(HttpRequest.newBuilder()
                .header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("a,b\n1,2\n")), "/v1/files");

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(error(answer).path("message").asString()).contains("multipart/form-data");
    }

    @Test
    void shouldAnswerAnUpstreamThatDropsTheConnectionWithUpstreamError() {
        openAi.stubFor(get("/v1/files").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        assertThatThrownBy(() -> sdk(ALICE_KEY).files().list())
                .isInstanceOfSatisfying(InternalServerException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(502);
                    assertThat(e.code()).hasValue("upstream_error");
                });
    }

    @Test
    void shouldKeepTheUpstreamRequestIdApartFromTheGatewayOne() throws Exception {
        openAi.stubFor(get("/v1/files").willReturn(okJson("{\"object\":\"list\",\"data\":[],\"has_more\":false}")
                .withHeader("x-request-id", "req_upstream1").withHeader("x-ratelimit-remaining-requests", "9")));

        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).GET(), "/v1/files");

        assertThat(answer.headers().firstValue("x-request-id")).hasValueSatisfying(id -> assertThat(id).startsWith("gwreq_"));
        assertThat(answer.headers().firstValue("x-upstream-request-id")).hasValue("req_upstream1");
        assertThat(answer.headers().firstValue("x-ratelimit-remaining-requests")).isEmpty();
    }

    private JsonNode error(HttpResponse<String> answer) {
        assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("application/json"));
        return json.readTree(answer.body()).path("error");
    }
}
