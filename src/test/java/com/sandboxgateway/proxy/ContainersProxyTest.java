package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aMultipart;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.core.http.HttpResponse;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.containers.ContainerCreateResponse;
import com.openai.models.containers.ContainerListPage;
import com.openai.models.containers.ContainerRetrieveResponse;
import com.openai.models.containers.files.FileCreateParams;
import com.openai.models.containers.files.FileCreateResponse;
import com.openai.models.containers.files.FileDeleteParams;
import com.openai.models.containers.files.FileListPage;
import com.openai.models.containers.files.FileRetrieveParams;
import com.openai.models.containers.files.FileRetrieveResponse;
import com.openai.models.containers.files.content.ContentRetrieveParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

class ContainersProxyTest extends GatewayIntegrationTest {

    private static final String CFILE_ID = "cfile_68a93ac2d5e88191a7978f477a09bdf5";

    @Test
    void shouldCreateListRetrieveAndDeleteContainers() {
        String id = unique("cntr_");
        openAi.stubFor(post("/v1/containers").willReturn(okJson(example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, id))));
        openAi.stubFor(get(urlEqualTo("/v1/containers?limit=5")).willReturn(okJson(
                example("containers.list.response.json").replace(EXAMPLE_CONTAINER_ID, id))));
        openAi.stubFor(get("/v1/containers/" + id).willReturn(okJson(example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, id))));
        openAi.stubFor(delete("/v1/containers/" + id).willReturn(okJson(
                "{\"id\":\"" + id + "\",\"object\":\"container.deleted\",\"deleted\":true}")));

        ContainerCreateResponse created = sdk(ALICE_KEY).containers().create(ContainerCreateParams.builder()
                .name("analysis-session").memoryLimit(ContainerCreateParams.MemoryLimit._4G).build());
        ContainerListPage page = sdk(ALICE_KEY).containers().list(
                com.openai.models.containers.ContainerListParams.builder().limit(5).build());
        ContainerRetrieveResponse retrieved = sdk(ALICE_KEY).containers().retrieve(id);
        sdk(ALICE_KEY).containers().delete(id);

        assertThat(created.id()).isEqualTo(id);
        assertThat(page.data()).hasSize(1);
        assertThat(retrieved.name()).isEqualTo("analysis-session");
        openAi.verify(postRequestedFor(urlEqualTo("/v1/containers"))
                .withRequestBody(equalToJson("{\"name\":\"analysis-session\",\"memory_limit\":\"4g\",\"expires_after\":{\"anchor\":\"last_active_at\",\"minutes\":20}}")));
        openAi.verify(deleteRequestedFor(urlEqualTo("/v1/containers/" + id)));
    }

    @Test
    void shouldUploadContainerFilesAsMultipartAndByFileId(@TempDir Path dir) throws Exception {
        String containerId = createdContainer(ALICE_KEY, unique("cntr_"));
        String fileId = createdFile(ALICE_KEY, unique("file-"));
        String files = "/v1/containers/" + containerId + "/files";
        openAi.stubFor(post(files).willReturn(okJson(example("containers.files.object.json"))));
        Path csv = Files.writeString(dir.resolve("sales.csv"), "month,revenue\n1,10\n");

        FileCreateResponse uploaded = sdk(ALICE_KEY).containers().files().create(FileCreateParams.builder()
                .containerId(containerId).file(csv).build());
        var byId = raw(HttpRequest.newBuilder()
                .header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"file_id\":\"" + fileId + "\"}")), files);

        assertThat(uploaded.id()).isEqualTo(CFILE_ID);
        assertThat(byId.statusCode()).isEqualTo(200);
        openAi.verify(postRequestedFor(urlEqualTo(files))
                .withRequestBodyPart(aMultipart().withName("file").withBody(equalTo("month,revenue\n1,10\n")).build()));
        openAi.verify(postRequestedFor(urlEqualTo(files))
                .withRequestBody(equalToJson("{\"file_id\":\"" + fileId + "\"}")));
    }

    @Test
    void shouldListRetrieveDownloadAndDeleteContainerFiles() throws Exception {
        String containerId = createdContainer(ALICE_KEY, unique("cntr_"));
        String files = "/v1/containers/" + containerId + "/files";
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff};
        openAi.stubFor(get(urlEqualTo(files + "?order=asc")).willReturn(okJson(example("containers.files.list.response.json"))));
        openAi.stubFor(get(files + "/" + CFILE_ID).willReturn(okJson(example("containers.files.object.json"))));
        openAi.stubFor(get(files + "/" + CFILE_ID + "/content").willReturn(aResponse()
                .withHeader("Content-Type", "image/png").withBody(png)));
        openAi.stubFor(delete(files + "/" + CFILE_ID).willReturn(okJson(
                "{\"id\":\"" + CFILE_ID + "\",\"object\":\"container.file.deleted\",\"deleted\":true}")));

        FileListPage page = sdk(ALICE_KEY).containers().files().list(containerId,
                com.openai.models.containers.files.FileListParams.builder()
                        .order(com.openai.models.containers.files.FileListParams.Order.ASC).build());
        FileRetrieveResponse file = sdk(ALICE_KEY).containers().files().retrieve(FileRetrieveParams.builder()
                .containerId(containerId).fileId(CFILE_ID).build());
        byte[] content;
        try (HttpResponse download = sdk(ALICE_KEY).containers().files().content().retrieve(ContentRetrieveParams.builder()
                .containerId(containerId).fileId(CFILE_ID).build()); InputStream body = download.body()) {
            content = body.readAllBytes();
        }
        sdk(ALICE_KEY).containers().files().delete(FileDeleteParams.builder().containerId(containerId).fileId(CFILE_ID).build());

        assertThat(page.data()).hasSize(2);
        assertThat(file.path()).isEqualTo("/mnt/data/plot.png");
        assertThat(content).isEqualTo(png);
        openAi.verify(deleteRequestedFor(urlEqualTo(files + "/" + CFILE_ID)));
    }
}
