package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aMultipart;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.core.http.HttpResponse;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FileDeleted;
import com.openai.models.files.FileListPage;
import com.openai.models.files.FileListParams;
import com.openai.models.files.FileObject;
import com.openai.models.files.FilePurpose;
import com.sandboxgateway.support.GatewayIntegrationTest;

class FilesProxyTest extends GatewayIntegrationTest {

    private static final String CSV = "order_id,amount\n1,9.50\n2,12.00\n";

    @Test
    void shouldUploadAFileAsMultipartWithItsPurpose(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        Path csv = Files.writeString(dir.resolve("sales.csv"), CSV);

        FileObject file = sdk(ALICE_KEY).files().create(FileCreateParams.builder()
                .file(csv).purpose(FilePurpose.USER_DATA).build());

        assertThat(file.id()).isEqualTo(EXAMPLE_FILE_ID);
        assertThat(file.filename()).isEqualTo("sales.csv");
        openAi.verify(postRequestedFor(urlEqualTo("/v1/files"))
                .withHeader("Authorization", equalTo("Bearer " + ORG_KEY))
                .withHeader("Content-Type", containing("multipart/form-data; boundary="))
                .withRequestBodyPart(aMultipart().withName("purpose").withBody(equalTo("user_data")).build())
                .withRequestBodyPart(aMultipart().withName("file").withBody(equalTo(CSV)).build()));
    }

    @Test
    void shouldPassListPaginationParametersThrough() throws Exception {
        String id = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(get(urlEqualTo("/v1/files?after=file-abc&limit=2&order=asc"))
                .willReturn(okJson(example("files.list.response.json").replace(EXAMPLE_FILE_ID, id))));

        FileListPage page = sdk(ALICE_KEY).files().list(FileListParams.builder()
                .after("file-abc").limit(2).order(FileListParams.Order.ASC).build());

        assertThat(page.data()).extracting(FileObject::id).containsExactly(id);
        assertThat(page.hasNextPage()).isFalse();
    }

    @Test
    void shouldRetrieveDownloadAndDeleteAFile() throws Exception {
        String id = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(get("/v1/files/" + id).willReturn(okJson(example("files.object.json").replace(EXAMPLE_FILE_ID, id))));
        openAi.stubFor(get("/v1/files/" + id + "/content").willReturn(aResponse()
                .withHeader("Content-Type", "application/octet-stream").withBody(CSV)));
        openAi.stubFor(delete("/v1/files/" + id).willReturn(okJson(example("files.delete.response.json").replace(EXAMPLE_FILE_ID, id))));

        FileObject file = sdk(ALICE_KEY).files().retrieve(id);
        String content;
        try (HttpResponse download = sdk(ALICE_KEY).files().content(id); InputStream body = download.body()) {
            content = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        }
        FileDeleted deleted = sdk(ALICE_KEY).files().delete(id);

        assertThat(file.bytes()).isEqualTo(2048);
        assertThat(content).isEqualTo(CSV);
        assertThat(deleted.deleted()).isTrue();
    }
}
