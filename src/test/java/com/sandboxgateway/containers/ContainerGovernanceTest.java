package com.sandboxgateway.containers;

import static com.github.tomakehurst.wiremock.client.WireMock.aMultipart;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.core.JsonValue;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** Team container policy through the official SDK: each refusal, and the expiry the upstream receives. */
class ContainerGovernanceTest extends GatewayIntegrationTest {

    @Test
    void shouldRefuseDomainsOutsideTheTeamsAllowlistNamingThem() {
        assertRefused(ALICE_KEY, containerWithDomains("pypi.org", "evil-pypi.org", "169.254.169.254", "user:pw@pypi.org"),
                403, "domain_not_allowed", "'evil-pypi.org' (not in your team's allowlist)", "169.254.169.254");
        assertRefused(ALICE_KEY, containerWithDomains("api.example.com"), 403, "domain_not_allowed", "api.example.com");
        assertThatThrownBy(() -> sdk(ALICE_KEY).containers().create(containerWithDomains("evil-pypi.org")))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> assertThat(e.getMessage()).doesNotContain("user:pw"));
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldLetATeamOpenOnlyWhatItsAllowlistHolds() {
        openAi.stubFor(post("/v1/containers").willReturn(okJson(example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, unique("cntr_")))));

        sdk(ALICE_KEY).containers().create(containerWithDomains("PyPI.org."));

        openAi.verify(postRequestedFor(urlEqualTo("/v1/containers"))
                .withRequestBody(matchingJsonPath("$.network_policy.allowed_domains[0]", equalTo("PyPI.org."))));
    }

    @Test
    void shouldNotLetATeamWithAnEmptyAllowlistOpenTheNetwork() {
        assertRefused(BOB_KEY, containerWithDomains("pypi.org"), 403, "domain_not_allowed", "may not open a container's network");
    }

    @Test
    void shouldRefuseMemoryTiersAndToolsOutsideTheTeamsPolicy() {
        assertRefused(BOB_KEY, ContainerCreateParams.builder().name("x").memoryLimit(ContainerCreateParams.MemoryLimit._4G).build(),
                403, "memory_limit_not_allowed", "1g");
        assertThatThrownBy(() -> sdk(BOB_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .putAdditionalBodyProperty("tools", JsonValue.from(java.util.List.of(java.util.Map.of("type", "function",
                        "name", "f", "parameters", java.util.Map.of())))).build()))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(403);
                    assertThat(e.code()).hasValue("tool_not_allowed");
                });
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .putAdditionalBodyProperty("tools", JsonValue.from(java.util.List.of(java.util.Map.of("type", "code_interpreter",
                        "container", java.util.Map.of("type", "auto", "memory_limit", "64g"))))).build()))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> assertThat(e.code()).hasValue("memory_limit_not_allowed"));
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseAContainerFileGivenAsModelInput() {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("input", JsonValue.from(java.util.List.of(java.util.Map.of("role", "user", "content",
                        java.util.List.of(java.util.Map.of("type", "input_file", "file_id", "cfile_abc123")))))).build()))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.code()).hasValue("container_file_not_input_file");
                    assertThat(e.getMessage()).contains("/content");
                });
    }

    @Test
    void shouldGiveEveryUploadAnExpiryWithinTheMaximum(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        Path notes = Files.writeString(dir.resolve("notes.txt"), "hello");

        sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(notes).purpose(FilePurpose.USER_DATA).build());
        sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(notes).purpose(FilePurpose.USER_DATA)
                .expiresAfter(FileCreateParams.ExpiresAfter.builder().seconds(2_592_000).build()).build());

        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/files"))
                .withRequestBodyPart(aMultipart().withName("expires_after[seconds]").withBody(equalTo("7200")).build())
                .withRequestBodyPart(aMultipart().withName("expires_after[anchor]").withBody(equalTo("created_at")).build()));
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/files"))
                .withRequestBodyPart(aMultipart().withName("expires_after[seconds]").withBody(equalTo("86400")).build()));
    }

    @Test
    void shouldCapAContainersIdleExpiryToTheTeams() {
        openAi.stubFor(post("/v1/containers").willReturn(okJson(example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, unique("cntr_")))));

        sdk(BOB_KEY).containers().create(ContainerCreateParams.builder().name("x")
                .expiresAfter(ContainerCreateParams.ExpiresAfter.builder().anchor(ContainerCreateParams.ExpiresAfter.Anchor.LAST_ACTIVE_AT)
                        .minutes(60).build()).build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/containers"))
                .withRequestBody(equalToJson("{\"name\":\"x\",\"expires_after\":{\"anchor\":\"last_active_at\",\"minutes\":10}}")));
    }

    private static ContainerCreateParams containerWithDomains(String... domains) {
        return ContainerCreateParams.builder().name("net").putAdditionalBodyProperty("network_policy",
                JsonValue.from(java.util.Map.of("type", "allowlist", "allowed_domains", java.util.List.of(domains)))).build();
    }

    private void assertRefused(String key, ContainerCreateParams params, int status, String code, String... messageParts) {
        assertThatThrownBy(() -> sdk(key).containers().create(params)).isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.code()).hasValue(code);
            for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
            }
        });
    }
}
