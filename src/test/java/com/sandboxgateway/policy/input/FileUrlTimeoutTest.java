package com.sandboxgateway.policy.input;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.openai.errors.BadRequestException;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputContent;
import com.openai.models.responses.ResponseInputFile;
import com.openai.models.responses.ResponseInputItem;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * A file host that stays silent is given up on after {@code file-urls.read-timeout}. Its own context, so
 * the short timeout never races a fetch that is meant to succeed.
 */
class FileUrlTimeoutTest extends GatewayIntegrationTest {

    private static final WireMockServer silentHost = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));

    static {
        silentHost.start();
    }

    @DynamicPropertySource
    static void fetchFrom(DynamicPropertyRegistry registry) {
        registry.add("gateway.policy.org.files.file-urls.fetch-from[0]", () -> "http://127.0.0.1:" + silentHost.port());
        registry.add("gateway.policy.org.files.file-urls.read-timeout", () -> "1s");
    }

    @Test
    void shouldGiveUpOnAHostThatStaysSilent() {
        silentHost.stubFor(get("/slow.csv").willReturn(aResponse().withBody("a,b\n1,2\n").withFixedDelay(15_000)));
        ResponseCreateParams request = ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(List.of(
                ResponseInputItem.ofMessage(ResponseInputItem.Message.builder().role(ResponseInputItem.Message.Role.USER)
                        .addContent(ResponseInputContent.ofInputFile(ResponseInputFile.builder()
                                .fileUrl("http://127.0.0.1:" + silentHost.port() + "/slow.csv").build()))
                        .build()))).build();

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(request)).isInstanceOfSatisfying(BadRequestException.class, e -> {
            assertThat(e.code()).hasValue("invalid_request");
            assertThat(e.getMessage()).contains("could not be fetched").contains("SocketTimeoutException");
        });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }
}
