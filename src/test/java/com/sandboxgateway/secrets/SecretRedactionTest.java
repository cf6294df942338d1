package com.sandboxgateway.secrets;

import static com.github.tomakehurst.wiremock.client.WireMock.aMultipart;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.TestPropertySource;

import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** With {@code secrets.action: redact}, credentials are replaced and the request goes on; the upstream never sees them. */
@TestPropertySource(properties = "gateway.policy.org.secrets.action=redact")
class SecretRedactionTest extends GatewayIntegrationTest {

    @Test
    void shouldRedactACredentialInAPrompt() {
        String token = SecretGuardrailsTest.githubToken();
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("clone with " + token).build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses")).withRequestBody(containing("clone with [REDACTED:github-token]")));
        assertThat(openAi.getAllServeEvents()).noneSatisfy(event -> assertThat(event.getRequest().getBodyAsString()).contains(token));
    }

    @Test
    void shouldRedactACredentialInAFile(@TempDir Path dir) throws Exception {
        String token = SecretGuardrailsTest.githubToken();
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));

        sdk(ALICE_KEY).files().create(FileCreateParams.builder().purpose(FilePurpose.USER_DATA)
                .file(Files.writeString(dir.resolve("tickets.csv"), "id,notes\n1,\"token " + token + "\"\n")).build());
        sdk(ALICE_KEY).files().create(FileCreateParams.builder().purpose(FilePurpose.USER_DATA)
                .file(Files.writeString(dir.resolve("notes.txt"), "a".repeat(70_000) + "\nkey " + token + " end\n")).build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/files"))
                .withRequestBodyPart(aMultipart().withName("file").withBody(equalTo("id,notes\n1,token [REDACTED:github-token]\n")).build()));
        openAi.verify(postRequestedFor(urlEqualTo("/v1/files"))
                .withRequestBodyPart(aMultipart().withName("file").withBody(containing("\nkey [REDACTED:github-token] end\n")).build()));
        assertThat(openAi.getAllServeEvents()).noneSatisfy(event -> assertThat(event.getRequest().getBodyAsString()).contains(token));
    }
}
