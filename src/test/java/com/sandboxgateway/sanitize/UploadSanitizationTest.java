package com.sandboxgateway.sanitize;

import static com.github.tomakehurst.wiremock.client.WireMock.aMultipart;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.core.MultipartField;
import com.openai.errors.BadRequestException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.UnprocessableEntityException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.sandboxgateway.support.GatewayIntegrationTest;

class UploadSanitizationTest extends GatewayIntegrationTest {

    private static final String ORDERS = "order_id,customer_id,Customer_SSN,amount,order_date,email,note\n"
            + "1,C-1,123-45-6789,9.50,2026-01-02,ann@example.com,=HYPERLINK(\"http://x\")\n"
            + "2,C-2,987-65-4321,-12.5,2026-01-03,,\"multi\nline\"\n";

    @Test
    void shouldSendOnlyTheSanitizedFileUpstream(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));

        sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(Files.writeString(dir.resolve("orders.csv"), ORDERS))
                .purpose(FilePurpose.USER_DATA).putAdditionalHeader("X-Gateway-Dataset-Profile", "orders").build());

        String expected = "order_id,customer_id,amount,order_date,email,note\n"
                + "1," + CsvPseudonym.of("C-1") + ",9.50,2026-01-02," + CsvPseudonym.of("ann@example.com") + ",\"'=HYPERLINK(\"\"http://x\"\")\"\n"
                + "2," + CsvPseudonym.of("C-2") + ",-12.5,2026-01-03,,\"multi\nline\"\n";
        openAi.verify(postRequestedFor(urlEqualTo("/v1/files"))
                .withRequestBodyPart(aMultipart().withName("file").withBody(equalTo(expected)).build())
                .withRequestBodyPart(aMultipart().withName("purpose").withBody(equalTo("user_data")).build()));
    }

    @Test
    void shouldTellTheClientWhatWasDone(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));

        var raw = sdk(ALICE_KEY).files().withRawResponse().create(FileCreateParams.builder()
                .file(Files.writeString(dir.resolve("orders.csv"), ORDERS)).purpose(FilePurpose.USER_DATA).build());

        assertThat(raw.headers().values("X-Gateway-Sanitized"))
                .containsExactly("format=csv; dropped=customer_ssn; pseudonymized=customer_id,email; rows=2");
    }

    @Test
    void shouldRefuseAFileMissingTheProfilesColumns(@TempDir Path dir) throws Exception {
        Path csv = Files.writeString(dir.resolve("orders.csv"), "order_id,amount\n1,2\n");

        assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA)
                .putAdditionalHeader("X-Gateway-Dataset-Profile", "orders").build()))
                .isInstanceOfSatisfying(UnprocessableEntityException.class, e -> {
                    assertThat(e.code()).hasValue("missing_required_columns");
                    assertThat(e.getMessage()).contains("customer_id").contains("order_date");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseAnUnknownProfile(@TempDir Path dir) throws Exception {
        Path csv = Files.writeString(dir.resolve("orders.csv"), ORDERS);

        assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA)
                .putAdditionalHeader("X-Gateway-Dataset-Profile", "payroll").build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage()).contains("payroll").contains("orders"));
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseMalformedFilesWithTheirLineAndSendNothing(@TempDir Path dir) throws Exception {
        assertRefused(Files.writeString(dir.resolve("a.csv"), "a,b\n1,2\n3,4,5\n"), 422, "invalid_file", "Line 3");
        assertRefused(Files.writeString(dir.resolve("b.jsonl"), "{\"a\":1}\n[1,2]\n"), 422, "invalid_file", "Line 2");
        assertRefused(Files.writeString(dir.resolve("c.csv"), "{\"a\":1}\n"), 415, "unsupported_file_type", "JSON");
        assertRefused(Files.writeString(dir.resolve("d.exe"), "MZ"), 415, "unsupported_file_type", "d.exe");
        assertRefused(Files.write(dir.resolve("e.csv"), ("a,b\n" + "1,2\n".repeat(1_400_000)).getBytes(StandardCharsets.US_ASCII)),
                413, "file_too_large", "5MB");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldPassOpaqueFilesUnchanged(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        String notes = "customer_ssn: 123-45-6789 stays, this is not tabular data\n";

        sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(Files.writeString(dir.resolve("notes.txt"), notes))
                .purpose(FilePurpose.USER_DATA).build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/files"))
                .withRequestBodyPart(aMultipart().withName("file").withBody(equalTo(notes)).build()));
    }

    @Test
    void shouldSanitizeContainerFileUploadsToo() throws Exception {
        String container = createdContainer(ALICE_KEY, unique("cntr_"));
        openAi.stubFor(post("/v1/containers/" + container + "/files").willReturn(okJson(example("containers.files.object.json"))));

        sdk(ALICE_KEY).containers().files().create(container, com.openai.models.containers.files.FileCreateParams.builder()
                .file(MultipartField.<java.io.InputStream>builder()
                        .value(new java.io.ByteArrayInputStream("{\"email\":\"a@b.c\",\"customer_ssn\":\"1\",\"n\":{\"x\":1}}\n".getBytes()))
                        .filename("events.jsonl").build()).build());

        openAi.verify(postRequestedFor(urlEqualTo("/v1/containers/" + container + "/files"))
                .withRequestBodyPart(aMultipart().withName("file")
                        .withBody(equalTo("{\"email\":\"" + CsvPseudonym.of("a@b.c") + "\",\"n\":{\"x\":1}}\n")).build()));
    }

    private void assertRefused(Path file, int status, String code, String messagePart) {
        assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(file).purpose(FilePurpose.USER_DATA).build()))
                .as(file.getFileName().toString())
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(status);
                    assertThat(e.code()).hasValue(code);
                    assertThat(e.getMessage()).contains(messagePart);
                });
    }

    /** Pseudonyms under the test profile's key, computed independently of the gateway. */
    private static final class CsvPseudonym {
        static String of(String value) throws Exception {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec("test-pseudonymization-key-0001".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        }
    }
}
