package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.MultipartField;
import com.openai.core.ObjectMappers;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.containers.ContainerCreateResponse;
import com.openai.models.containers.files.FileCreateParams;
import com.openai.models.containers.files.FileCreateResponse;
import com.openai.models.containers.files.FileDeleteParams;
import com.openai.models.containers.files.FileRetrieveParams;
import com.openai.models.containers.files.content.ContentRetrieveParams;
import com.openai.models.responses.ContainerNetworkPolicyAllowlist;
import com.openai.models.responses.ContainerNetworkPolicyDomainSecret;
import org.junit.jupiter.api.Test;

class OfflineSimulatorContainersTest extends SimulatorTest {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @Test
    void shouldEchoTheContainerSettingsWithoutDomainSecrets() {
        var params = ContainerCreateParams.builder()
                .name("analysis-session")
                .memoryLimit(ContainerCreateParams.MemoryLimit._4G)
                .expiresAfter(ContainerCreateParams.ExpiresAfter.builder()
                        .anchor(ContainerCreateParams.ExpiresAfter.Anchor.LAST_ACTIVE_AT)
                        .minutes(15)
                        .build())
                .networkPolicy(ContainerNetworkPolicyAllowlist.builder()
                        .addAllowedDomain("api.example.com")
                        .addDomainSecret(ContainerNetworkPolicyDomainSecret.builder()
                                .domain("api.example.com").name("EXAMPLE_API_KEY").value("s3cr3t").build())
                        .build())
                .build();

        try (var raw = openAi.containers().withRawResponse().create(params)) {
            ContainerCreateResponse container = raw.parse();

            assertThat(container.id()).startsWith("cntr_");
            assertThat(container.name()).isEqualTo("analysis-session");
            assertThat(container.status()).isEqualTo("running");
            assertThat(container.memoryLimit().orElseThrow().asString()).isEqualTo("4g");
            assertThat(container.expiresAfter().orElseThrow().minutes()).contains(15L);
            assertThat(container.networkPolicy().orElseThrow().allowedDomains())
                    .contains(List.of("api.example.com"));
            assertThat(ObjectMappers.jsonMapper().valueToTree(container).toString())
                    .doesNotContain("s3cr3t", "domain_secrets");
        }
    }

    @Test
    void shouldDefaultTheMemoryLimitToOneGigabyte() {
        ContainerCreateResponse container = openAi.containers().create(
                ContainerCreateParams.builder().name("plain").build());

        assertThat(container.memoryLimit().orElseThrow().asString()).isEqualTo("1g");
    }

    @Test
    void shouldListRetrieveAndDeleteContainers() {
        assertThat(openAi.containers().list().data()).isNotEmpty()
                .allSatisfy(container -> assertThat(container.id()).startsWith("cntr_"));

        assertThat(openAi.containers().retrieve("cntr_abc123").id()).isEqualTo("cntr_abc123");

        try (var deleted = openAi.containers().withRawResponse().delete("cntr_abc123")) {
            JsonNode body = SimulatorClients.jsonBody(deleted);
            assertThat(body.get("id").asText()).isEqualTo("cntr_abc123");
            assertThat(body.get("object").asText()).isEqualTo("container.deleted");
            assertThat(body.get("deleted").asBoolean()).isTrue();
        }
    }

    @Test
    void shouldPlaceAnUploadedFileUnderMntData() {
        byte[] content = "month,revenue\n2025-01,12000\n".getBytes(StandardCharsets.UTF_8);

        FileCreateResponse file = openAi.containers().files().create(FileCreateParams.builder()
                .containerId("cntr_abc123")
                .file(MultipartField.<InputStream>builder()
                        .value(new ByteArrayInputStream(content))
                        .filename("sales.csv")
                        .build())
                .build());

        assertThat(file.id()).startsWith("cfile_");
        assertThat(file.containerId()).isEqualTo("cntr_abc123");
        assertThat(file.path()).isEqualTo("/mnt/data/sales.csv");
        assertThat(file.bytes()).isEqualTo(content.length);
        assertThat(file.source()).isEqualTo("user");
    }

    @Test
    void shouldCopyAFilesApiFileIntoTheContainer() {
        FileCreateResponse file = openAi.containers().files().create(FileCreateParams.builder()
                .containerId("cntr_abc123")
                .fileId("file-9Xc2bT4kQm7Lz1RaPq3Wv8")
                .build());

        assertThat(file.id()).startsWith("cfile_");
        assertThat(file.containerId()).isEqualTo("cntr_abc123");
        assertThat(file.path()).isEqualTo("/mnt/data/file-9Xc2bT4kQm7Lz1RaPq3Wv8-sales.csv");
    }

    @Test
    void shouldAcceptTheFileIdAsJsonFromClientsOtherThanTheSdk() throws Exception {
        // The SDK always sends multipart; the gateway or curl may send the documented JSON body.
        HttpRequest request = HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/v1/containers/cntr_abc123/files"))
                .header("Authorization", "Bearer sk-test")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"file_id\":\"file-xyz\"}"))
                .build();

        try (HttpClient http = HttpClient.newHttpClient()) {
            var response = http.send(request, BodyHandlers.ofString());
            JsonNode file = ObjectMappers.jsonMapper().readTree(response.body());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(file.get("object").asText()).isEqualTo("container.file");
            assertThat(file.get("id").asText()).startsWith("cfile_");
            assertThat(file.get("container_id").asText()).isEqualTo("cntr_abc123");
            assertThat(file.get("path").asText()).isEqualTo("/mnt/data/file-xyz-sales.csv");
        }
    }

    @Test
    void shouldListAndRetrieveContainerFiles() {
        assertThat(openAi.containers().files().list("cntr_abc123").data())
                .isNotEmpty()
                .allSatisfy(file -> assertThat(file.containerId()).isEqualTo("cntr_abc123"));

        var file = openAi.containers().files().retrieve(
                FileRetrieveParams.builder().containerId("cntr_abc123").fileId("cfile_1").build());

        assertThat(file.id()).isEqualTo("cfile_1");
        assertThat(file.containerId()).isEqualTo("cntr_abc123");
        assertThat(file.path()).startsWith("/mnt/data/");
    }

    @Test
    void shouldDownloadAContainerFileAsPngBytes() {
        var response = openAi.containers().files().content().retrieve(
                ContentRetrieveParams.builder().containerId("cntr_abc123").fileId("cfile_1").build());

        byte[] bytes = SimulatorClients.bytes(response);

        assertThat(Arrays.copyOf(bytes, PNG_SIGNATURE.length)).isEqualTo(PNG_SIGNATURE);
    }

    @Test
    void shouldDeleteAContainerFile() {
        var params = FileDeleteParams.builder().containerId("cntr_abc123").fileId("cfile_1").build();

        try (var deleted = openAi.containers().files().withRawResponse().delete(params)) {
            JsonNode body = SimulatorClients.jsonBody(deleted);
            assertThat(body.get("id").asText()).isEqualTo("cfile_1");
            assertThat(body.get("object").asText()).isEqualTo("container.file.deleted");
            assertThat(body.get("deleted").asBoolean()).isTrue();
        }
    }
}
