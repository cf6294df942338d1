package com.sandboxgateway.secrets;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.support.GatewayIntegrationTest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Credentials never reach the upstream; personal data in prompts is reported to the audit (the default policy). */
class SecretGuardrailsTest extends GatewayIntegrationTest {

    static final SecureRandom RANDOM = new SecureRandom();


    @Autowired
    MeterRegistry meters;

    static String githubToken() {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder token = new StringBuilder("ghp_");
        for (int i = 0; i < 36; i++) {
            token.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return token.toString();
    }

    @Test
    void shouldBlockACredentialInAPromptNamingRuleAndPlaceButNeverTheValue() {
        String token = githubToken();

        assertBlocked(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("input", JsonValue.from(List.of(Map.of("role", "user", "content", List.of(
                        Map.of("type", "input_text", "text", "Summarize the repo"),
                        Map.of("type", "input_text", "text", "use token " + token + " to clone it")))))).build()),
                token, "input[0].content[1]", "github-token", "input[0].content[1].text");
        assertBlocked(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .instructions("Deploy with " + token).build()), token, "instructions", "github-token", "instructions");
        assertBlocked(() -> sdk(ALICE_KEY).containers().create(ContainerCreateParams.builder().name("x")
                .putAdditionalBodyProperty("network_policy", JsonValue.from(Map.of("type", "allowlist", "allowed_domains", List.of("pypi.org"),
                        "domain_secrets", List.of(Map.of("domain", "pypi.org", "name", "TOKEN", "value", token))))).build()),
                token, "network_policy.domain_secrets[0].value", "github-token", "network_policy.domain_secrets[0].value");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldBlockACredentialInAnUploadedFile(@TempDir Path dir) throws Exception {
        String token = githubToken();
        Path csv = Files.writeString(dir.resolve("tickets.csv"), "id,notes\n1,all fine\n2,\"pasted " + token + " by mistake\"\n");
        Path notes = Files.writeString(dir.resolve("notes.txt"), "x".repeat(65_530) + " " + token + "\nmore text\n");

        assertBlocked(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA).build()),
                token, "file line 3 column notes", "github-token", "file");
        assertBlocked(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(notes).purpose(FilePurpose.USER_DATA).build()),
                token, "file line 1", "github-token", "file");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldCountAndAuditEveryCredentialFoundInARefusedUpload(@TempDir Path dir) throws Exception {
        FakeSecrets fake = new FakeSecrets(RANDOM.nextLong());
        Map<String, String> files = Map.of(
                "aws-access-key-id", "notes\nkey id " + fake.awsAccessKeyId() + "\n",
                "openai-api-key", "notes\nuse " + fake.openAiProjectKey() + "\n",
                "github-token", "notes\nuse " + githubToken() + "\n");
        for (Map.Entry<String, String> file : files.entrySet()) {
            double before = findings(file.getKey());
            Path csv = Files.writeString(dir.resolve(file.getKey() + ".csv"), file.getValue());

            assertThatThrownBy(() -> sdk(BOB_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA).build()))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.code()).hasValue("secret_detected"));

            assertThat(findings(file.getKey())).as(file.getKey()).isGreaterThan(before);
            assertThat(findingDetails("bob")).as(file.getKey()).anySatisfy(record -> assertThat(record)
                    .contains("\"rule\":\"" + file.getKey() + "\"").contains("secrets blocked").contains("file line 2"));
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    private List<String> findingDetails(String user) {
        return audited(record -> record.kind() == AuditRecord.Kind.SECRET_FINDING && user.equals(record.user())).stream()
                .map(AuditRecord::details).toList();
    }

    private double findings(String rule) {
        Counter counter = meters.find("gateway.findings").tags("kind", "secret", "rule", rule, "team", "finance").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void shouldReportPersonalDataInAPromptToTheAuditWithoutTheValue() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        String email = "jane.roe" + RANDOM.nextInt(1_000_000) + "@example.org";

        sdk(CAROL_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("Write to " + email).build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses")));
        assertThat(findingDetails("carol")).anySatisfy(record -> assertThat(record).contains("\"rule\":\"email\"").contains("\"location\":\"input\"")
                .contains("personal data reported").doesNotContain(email));
    }

    private static void assertBlocked(org.junit.jupiter.api.function.Executable call, String secret, String location, String rule,
                                      String param) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(BadRequestException.class, e -> {
            assertThat(e.code()).hasValue("secret_detected");
            assertThat(e.param()).hasValue(param);
            assertThat(e.getMessage()).contains(location).contains(rule).doesNotContain(secret);
        });
    }
}
