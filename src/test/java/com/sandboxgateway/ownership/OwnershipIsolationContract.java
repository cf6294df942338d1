package com.sandboxgateway.ownership;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.containers.files.FileDeleteParams;
import com.openai.models.containers.files.FileRetrieveParams;
import com.openai.models.containers.files.content.ContentRetrieveParams;
import com.openai.models.files.FileListParams;
import com.openai.models.files.FileObject;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * Two teams share one OpenAI org key; through the gateway neither can reach the other's objects, on any
 * path. Run against each supported database by the subclasses.
 */
abstract class OwnershipIsolationContract extends GatewayIntegrationTest {

    @Test
    void shouldHideAnotherUsersFileOnEveryFileRoute() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        OpenAIClient bob = sdk(BOB_KEY);

        assertNotFound(() -> bob.files().retrieve(file));
        assertNotFound(() -> bob.files().content(file));
        assertNotFound(() -> bob.files().delete(file));
        assertNotFound(() -> sdk(CAROL_KEY).files().retrieve(file));
        assertThat(openAi.findAll(anyRequestedFor(urlPathEqualTo("/v1/files/" + file)))).isEmpty();
    }

    @Test
    void shouldHideAnotherUsersContainerAndItsFiles() throws Exception {
        String container = createdContainer(ALICE_KEY, unique("cntr_"));
        String cfile = unique("cfile_");
        OpenAIClient bob = sdk(BOB_KEY);

        assertNotFound(() -> bob.containers().retrieve(container));
        assertNotFound(() -> bob.containers().delete(container));
        assertNotFound(() -> bob.containers().files().list(container));
        assertNotFound(() -> bob.containers().files().create(container,
                com.openai.models.containers.files.FileCreateParams.builder().file("a,b\n".getBytes()).build()));
        assertNotFound(() -> bob.containers().files().retrieve(FileRetrieveParams.builder().containerId(container).fileId(cfile).build()));
        assertNotFound(() -> bob.containers().files().content().retrieve(ContentRetrieveParams.builder()
                .containerId(container).fileId(cfile).build()));
        assertNotFound(() -> bob.containers().files().delete(FileDeleteParams.builder().containerId(container).fileId(cfile).build()));
        openAi.verify(0, anyRequestedFor(urlPathEqualTo("/v1/containers/" + container)));
    }

    @Test
    void shouldHideAnotherUsersResponse() {
        String response = createdResponse(ALICE_KEY, unique("resp_"));
        OpenAIClient bob = sdk(BOB_KEY);

        assertNotFound(() -> bob.responses().retrieve(response));
        assertNotFound(() -> bob.responses().delete(response));
        assertNotFound(() -> bob.responses().cancel(response));
        assertNotFound(() -> bob.responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("continue")
                .previousResponseId(response).build()));
    }

    @Test
    void shouldRefuseForeignIdsInsideRequestBodies() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        String container = createdContainer(ALICE_KEY, unique("cntr_"));
        String bobsContainer = createdContainer(BOB_KEY, unique("cntr_"));
        openAi.resetRequests();

        assertRefused(BOB_KEY, "/v1/responses", "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"tools\":[{\"type\":\"code_interpreter\",\"container\":\""
                + container + "\"}]}", "tools[0].container");
        assertRefused(BOB_KEY, "/v1/responses", "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"tools\":[{\"type\":\"code_interpreter\","
                + "\"container\":{\"type\":\"auto\",\"file_ids\":[\"" + file + "\"]}}]}", "tools[0].container.file_ids[0]");
        assertRefused(BOB_KEY, "/v1/responses", "{\"model\":\"gpt-4.1\",\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_text\",\"text\":\"read\"},{\"type\":\"input_file\",\"file_id\":\"" + file + "\"}]}]}",
                "input[0].content[1].file_id");
        assertRefused(BOB_KEY, "/v1/containers", "{\"name\":\"x\",\"file_ids\":[\"" + file + "\"]}", "file_ids[0]");
        assertRefused(BOB_KEY, "/v1/containers/" + bobsContainer + "/files", "{\"file_id\":\"" + file + "\"}", "file_id");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldCheckAFileIdSentAsAFormFieldLikeTheSdksDo() throws Exception {
        String alicesFile = createdFile(ALICE_KEY, unique("file-"));
        String bobsContainer = createdContainer(BOB_KEY, unique("cntr_"));
        String alicesContainer = createdContainer(ALICE_KEY, unique("cntr_"));
        openAi.stubFor(post(urlPathEqualTo("/v1/containers/" + alicesContainer + "/files"))
                .willReturn(okJson(example("containers.files.object.json"))));

        assertNotFound(() -> sdk(BOB_KEY).containers().files().create(bobsContainer,
                com.openai.models.containers.files.FileCreateParams.builder().fileId(alicesFile).build()));
        sdk(ALICE_KEY).containers().files().create(alicesContainer,
                com.openai.models.containers.files.FileCreateParams.builder().fileId(alicesFile).build());

        openAi.verify(0, anyRequestedFor(urlPathEqualTo("/v1/containers/" + bobsContainer + "/files")));
        openAi.verify(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                urlPathEqualTo("/v1/containers/" + alicesContainer + "/files"))
                .withRequestBodyPart(com.github.tomakehurst.wiremock.client.WireMock.aMultipart().withName("file_id")
                        .withBody(com.github.tomakehurst.wiremock.client.WireMock.equalTo(alicesFile)).build()));
    }

    @Test
    void shouldListOnlyTheCallersFilesAcrossUpstreamPages() throws Exception {
        List<String> alices = List.of(createdFile(ALICE_KEY, unique("file-")), createdFile(ALICE_KEY, unique("file-")),
                createdFile(ALICE_KEY, unique("file-")));
        List<String> bobs = List.of(createdFile(BOB_KEY, unique("file-")), createdFile(BOB_KEY, unique("file-")));
        // Upstream page 1 holds alice0, bob0, bob1; page 2 holds alice1, alice2.
        openAi.stubFor(get(urlEqualTo("/v1/files?limit=2")).willReturn(okJson(page(List.of(alices.get(0), bobs.get(0), bobs.get(1)), true))));
        openAi.stubFor(get(urlEqualTo("/v1/files?after=" + bobs.get(1) + "&limit=10000"))
                .willReturn(okJson(page(List.of(alices.get(1), alices.get(2)), false))));

        var page = sdk(ALICE_KEY).files().list(FileListParams.builder().limit(2).build());

        assertThat(page.data()).extracting(FileObject::id).containsExactly(alices.get(0), alices.get(1));
        assertThat(page.hasMore()).hasValue(true);
        assertThat(page.response().lastId()).isEqualTo(alices.get(1));
    }

    @Test
    void shouldShowATeammateNothingUnderUserScope() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(get(urlEqualTo("/v1/files")).willReturn(okJson(page(List.of(file), false))));

        assertThat(sdk(CAROL_KEY).files().list().data()).isEmpty();
        assertThat(sdk(ALICE_KEY).files().list().data()).extracting(FileObject::id).containsExactly(file);
    }

    @Test
    void shouldOwnWhatAStreamedResponseCreated() {
        String sse = example("responses.stream.code-interpreter.sse");
        String response = unique("resp_");
        String container = unique("cntr_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(sse.replace(EXAMPLE_RESPONSE_ID, response).replace(EXAMPLE_CONTAINER_ID, container))));
        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-4.1").input("plot").build())) {
            assertThat(stream.stream().count()).isEqualTo(18);
        }
        openAi.stubFor(get(urlPathEqualTo("/v1/containers/" + container)).willReturn(okJson(
                example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, container))));

        assertThat(sdk(ALICE_KEY).containers().retrieve(container).id()).isEqualTo(container);
        assertNotFound(() -> sdk(BOB_KEY).containers().retrieve(container));
        assertNotFound(() -> sdk(BOB_KEY).responses().retrieve(response));
    }

    @Test
    void shouldOwnTheContainerABackgroundResponseStartedOnceItIsFetched() {
        String response = unique("resp_");
        String container = unique("cntr_");
        String queued = completedResponse(response, container).replace("\"status\": \"completed\"", "\"status\": \"queued\"");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(queued.replaceAll("\"output\": \\[[\\s\\S]*?\\n  \\],", "\"output\": [],"))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(true).build());
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(completedResponse(response, container))));

        sdk(ALICE_KEY).responses().retrieve(response);

        assertNotFound(() -> sdk(BOB_KEY).containers().retrieve(container));
        openAi.stubFor(get(urlPathEqualTo("/v1/containers/" + container)).willReturn(okJson(
                example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, container))));
        assertThat(sdk(ALICE_KEY).containers().retrieve(container).id()).isEqualTo(container);
    }

    @Test
    void shouldForgetADeletedFile() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(com.github.tomakehurst.wiremock.client.WireMock.delete("/v1/files/" + file).willReturn(okJson(
                "{\"id\":\"" + file + "\",\"object\":\"file\",\"deleted\":true}")));

        sdk(ALICE_KEY).files().delete(file);

        assertNotFound(() -> sdk(ALICE_KEY).files().retrieve(file));
        openAi.verify(0, getRequestedFor(urlPathEqualTo("/v1/files/" + file)));
    }

    private void assertRefused(String key, String path, String body, String param) throws Exception {
        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), path);
        assertThat(answer.statusCode()).as(body).isEqualTo(404);
        assertThat(answer.body()).contains("\"code\":\"not_found\"").contains("\"param\":\"" + param + "\"");
    }

    private static void assertNotFound(Executable call) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(NotFoundException.class,
                e -> assertThat(e.code()).hasValue("not_found"));
    }

    private static String page(List<String> ids, boolean hasMore) {
        String data = ids.stream().map(id -> example("files.object.json").replace(EXAMPLE_FILE_ID, id))
                .collect(Collectors.joining(","));
        return "{\"object\":\"list\",\"data\":[" + data + "],\"first_id\":\"" + ids.getFirst() + "\",\"last_id\":\""
                + ids.getLast() + "\",\"has_more\":" + hasMore + "}";
    }
}
