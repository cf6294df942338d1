package com.sandboxgateway.review;

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
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;

import com.openai.errors.RateLimitException;
import com.openai.errors.UnprocessableEntityException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;

/**
 * The blocking side: {@code injection.action: block} refuses planted instructions; {@code stop-runaway-sessions} stops a
 * session once more blocks in a row failed than {@code failure-streak} (1 here: stopped after 2).
 */
@TestPropertySource(properties = {"gateway.policy.org.injection.action=block", "gateway.review.failure-streak=1",
        "gateway.policy.org.turns.stop-runaway-sessions=true"})
class ReviewSignalsBlockingTest extends GatewayIntegrationTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldRefuseAnUploadWithAPlantedInstructionNamingLineAndColumn(@TempDir Path dir) throws Exception {
        AtomicReference<String> requestId = new AtomicReference<>();
        Path csv = Files.writeString(dir.resolve("sales.csv"), ReviewSignalsTest.PLANTED_CSV);

        assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA).build()))
                .isInstanceOfSatisfying(UnprocessableEntityException.class, e -> {
                    assertThat(e.code()).hasValue("instruction_in_data");
                    assertThat(e.getMessage()).contains("Line 3, column 3").doesNotContainIgnoringCase("ignore all previous");
                    requestId.set(e.headers().values("x-request-id").getFirst());
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));

        JsonNode refusal = flagged(requestId.get());
        assertThat(refusal.path("kind").asString()).isEqualTo("POLICY_REFUSAL");
        assertThat(refusal.path("flags").toString()).isEqualTo("[\"instruction_in_data\"]");
        assertThat(refusal.path("details").path("code").asString()).isEqualTo("instruction_in_data");
        assertThat(refusal.path("details").path("message").asString()).contains("Line 3, column 3");
    }

    /** The refusal is recorded after the answer went out: polled for, up to a minute, never timed. */
    private JsonNode flagged(String requestId) throws Exception {
        for (int i = 0; i < 600; i++) {
            JsonNode page = ReviewAudit.query(managementPort, "flag=instruction_in_data&user=alice&limit=10000");
            if (page.toString().contains(requestId)) {
                return ReviewAudit.only(page, requestId);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no record flagged instruction_in_data for request " + requestId);
    }

    @Test
    void shouldStopASessionAfterConsecutiveFailedCodeBlocks() {
        String session = unique("s-");
        for (int i = 0; i < 2; i++) {
            openAi.stubFor(post("/v1/responses").willReturn(okJson(CodeResponses.running("df = pd.read_csv('/mnt/data/missing.csv')",
                    CodeResponses.TRACEBACK))));
            sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("try again")
                    .putAdditionalHeader("X-Gateway-Session", session).build());
        }

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .input("try again").putAdditionalHeader("X-Gateway-Session", session).build()))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.code()).hasValue("turn_budget_exhausted");
                    assertThat(e.getMessage()).contains("stopped after 2 consecutive failed code blocks");
                });
        openAi.verify(2, postRequestedFor(urlEqualTo("/v1/responses")));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("fresh start")
                .putAdditionalHeader("X-Gateway-Session", unique("s-")).build());
    }
}
