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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.TestPropertySource;

import com.openai.errors.RateLimitException;
import com.openai.errors.UnprocessableEntityException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** The blocking side: {@code injection.action: block} refuses planted instructions; {@code stop-after-failures} stops a session. */
@TestPropertySource(properties = {"gateway.policy.org.injection.action=block", "gateway.policy.org.turns.stop-after-failures=2"})
class ReviewSignalsBlockingTest extends GatewayIntegrationTest {

    @Test
    void shouldRefuseAnUploadWithAPlantedInstructionNamingLineAndColumn(@TempDir Path dir) throws Exception {
        Path csv = Files.writeString(dir.resolve("sales.csv"), ReviewSignalsTest.PLANTED_CSV);

        assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA).build()))
                .isInstanceOfSatisfying(UnprocessableEntityException.class, e -> {
                    assertThat(e.code()).hasValue("instruction_in_data");
                    assertThat(e.getMessage()).contains("Line 3, column 3").doesNotContainIgnoringCase("ignore all previous");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
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
