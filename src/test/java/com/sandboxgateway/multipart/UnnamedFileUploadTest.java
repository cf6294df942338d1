package com.sandboxgateway.multipart;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.openai.errors.OpenAIServiceException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * The SDKs send bytes without a filename; such a "file" part must not slip past the data rules as a plain
 * form field: it is refused, and nothing goes upstream.
 */
class UnnamedFileUploadTest extends GatewayIntegrationTest {

    @Test
    void shouldRefuseAFilePartWithoutAFilenameInsteadOfSendingItUnsanitized() {
        byte[] csv = "customer_id,customer_ssn\nC-1001,123-45-6789\n".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA)
                .build())).isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(415);
                    assertThat(e.code()).hasValue("unsupported_file_type");
                    assertThat(e.param()).hasValue("file");
                    assertThat(e.getMessage()).contains("no filename");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }
}
