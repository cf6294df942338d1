package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.MultipartField;
import com.openai.core.ObjectMappers;
import com.openai.errors.NotFoundException;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.containers.ContainerCreateResponse;
import com.openai.models.containers.ContainerListResponse;
import com.openai.models.containers.files.FileCreateParams;
import com.openai.models.containers.files.FileCreateResponse;
import com.openai.models.containers.files.FileDeleteParams;
import com.openai.models.containers.files.FileListResponse;
import com.openai.models.containers.files.FileRetrieveParams;
import com.openai.models.containers.files.content.ContentRetrieveParams;
import com.openai.models.files.FileObject;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ContainerNetworkPolicyAllowlist;
import com.openai.models.responses.ContainerNetworkPolicyDomainSecret;

/** Containers and their files are kept: lists, retrieve, content and deletes agree, timestamps are current. */
class OfflineSimulatorContainersTest extends SimulatorTest {

    private static final byte[] CSV = "month,revenue\n2025-01,12000\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldEchoTheContainerSettingsWithoutDomainSecrets() {
        var params = ContainerCreateParams.builder()
                .name("analysis-session")
                .memoryLimit(ContainerCreateParams.MemoryLimit._4G)
                .expiresAfter(ContainerCreateParams.ExpiresAfter.builder()
                        .anchor(ContainerCreateParams.ExpiresAfter.Anchor.LAST_ACTIVE_AT).minutes(15).build())
                .networkPolicy(ContainerNetworkPolicyAllowlist.builder()
                        .addAllowedDomain("api.example.com")
                        .addDomainSecret(ContainerNetworkPolicyDomainSecret.builder()
                                .domain("api.example.com").name("EXAMPLE_API_KEY").value("s3cr3t").build())
                        .build())
                .build();

        ContainerCreateResponse container = openAi.containers().create(params);

        assertThat(container.id()).startsWith("cntr_");
        assertThat(container.name()).isEqualTo("analysis-session");
        assertThat(container.status()).isEqualTo("running");
        assertThat(container.memoryLimit().orElseThrow().asString()).isEqualTo("4g");
        assertThat(container.expiresAfter().orElseThrow().minutes()).contains(15L);
        assertThat(container.networkPolicy().orElseThrow().allowedDomains()).contains(List.of("api.example.com"));
        assertThat(ObjectMappers.jsonMapper().valueToTree(container).toString()).doesNotContain("s3cr3t", "domain_secrets");
        assertThat(container.lastActiveAt()).hasValueSatisfying(at -> assertThat(at).isCloseTo(Instant.now().getEpochSecond(), within(5L)));
    }

    @Test
    void shouldKeepContainersForListRetrieveAndDelete() {
        ContainerCreateResponse container = openAi.containers().create(ContainerCreateParams.builder().name("plain").build());

        assertThat(container.memoryLimit().orElseThrow().asString()).isEqualTo("1g");
        assertThat(openAi.containers().list().data()).extracting(ContainerListResponse::id).contains(container.id());
        assertThat(openAi.containers().retrieve(container.id()).name()).isEqualTo("plain");
        try (var deleted = openAi.containers().withRawResponse().delete(container.id())) {
            JsonNode body = SimulatorClients.jsonBody(deleted);
            assertThat(body.get("object").asText()).isEqualTo("container.deleted");
            assertThat(body.get("deleted").asBoolean()).isTrue();
        }
        assertThatThrownBy(() -> openAi.containers().retrieve(container.id())).isInstanceOf(NotFoundException.class);
        assertThat(openAi.containers().list().data()).extracting(ContainerListResponse::id).doesNotContain(container.id());
    }

    @Test
    void shouldKeepAnUploadUnderMntDataWithItsBytes() {
        String containerId = openAi.containers().create(ContainerCreateParams.builder().name("uploads").build()).id();

        FileCreateResponse file = openAi.containers().files().create(FileCreateParams.builder().containerId(containerId)
                .file(MultipartField.<InputStream>builder().value(new ByteArrayInputStream(CSV)).filename("sales.csv").build())
                .build());

        assertThat(file.id()).startsWith("cfile_");
        assertThat(file.containerId()).isEqualTo(containerId);
        assertThat(file.path()).isEqualTo("/mnt/data/sales.csv");
        assertThat(file.bytes()).isEqualTo(CSV.length);
        assertThat(file.source()).isEqualTo("user");
        assertThat(openAi.containers().files().list(containerId).data()).extracting(FileListResponse::id).containsExactly(file.id());
        assertThat(openAi.containers().files().retrieve(FileRetrieveParams.builder().containerId(containerId).fileId(file.id())
                .build()).path()).isEqualTo("/mnt/data/sales.csv");
        assertThat(SimulatorClients.bytes(openAi.containers().files().content().retrieve(ContentRetrieveParams.builder()
                .containerId(containerId).fileId(file.id()).build()))).isEqualTo(CSV);

        openAi.containers().files().delete(FileDeleteParams.builder().containerId(containerId).fileId(file.id()).build());
        assertThat(openAi.containers().files().list(containerId).data()).isEmpty();
    }

    @Test
    void shouldCopyAFilesApiFileIntoTheContainerFromTheSdkAndFromJson() throws Exception {
        FileObject uploaded = openAi.files().create(com.openai.models.files.FileCreateParams.builder().file(CSV)
                .purpose(FilePurpose.USER_DATA).build());
        String containerId = openAi.containers().create(ContainerCreateParams.builder().name("copies").build()).id();

        FileCreateResponse copied = openAi.containers().files().create(FileCreateParams.builder().containerId(containerId)
                .fileId(uploaded.id()).build());
        HttpRequest json = HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/v1/containers/" + containerId + "/files"))
                .header("Authorization", "Bearer sk-test").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"file_id\":\"" + uploaded.id() + "\"}")).build();
        JsonNode viaJson;
        try (HttpClient http = HttpClient.newHttpClient()) {
            viaJson = ObjectMappers.jsonMapper().readTree(http.send(json, BodyHandlers.ofString()).body());
        }

        assertThat(copied.path()).isEqualTo("/mnt/data/" + uploaded.filename());
        assertThat(copied.bytes()).isEqualTo(CSV.length);
        assertThat(viaJson.get("object").asText()).isEqualTo("container.file");
        assertThat(viaJson.get("container_id").asText()).isEqualTo(containerId);
        assertThat(openAi.containers().files().list(containerId).data()).hasSize(2);
        assertThatThrownBy(() -> openAi.containers().files().create(FileCreateParams.builder().containerId(containerId)
                .fileId("file-doesnotexist").build())).isInstanceOf(NotFoundException.class);
    }
}
