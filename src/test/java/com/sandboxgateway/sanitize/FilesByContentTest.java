package com.sandboxgateway.sanitize;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.github.tomakehurst.wiremock.http.Request;
import com.openai.core.MultipartField;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputFile;
import com.openai.models.responses.ResponseInputItem;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Uploads through the official SDK are read by what they hold: the bytes OpenAI receives (WireMock) hold no
 * dropped value and the pseudonyms a CSV would get, for a workbook, a renamed CSV (also one named and declared
 * as an image, uploaded or sent inline), a JSON array, a gzipped CSV and a zip.
 */
class FilesByContentTest extends GatewayIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ORDERS = "order_id,customer_id,customer_ssn,amount\n1,C-1,123-45-6789,9.50\n";

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldSanitizeEverySheetOfAWorkbook(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        Path xlsx = Files.write(dir.resolve("orders.xlsx"), XlsxSanitizerTest.resource("openpyxl-orders.xlsx"));

        var raw = sdk(ALICE_KEY).files().withRawResponse().create(FileCreateParams.builder().file(xlsx)
                .purpose(FilePurpose.USER_DATA).build());

        byte[] sent = sentFile();
        try (Workbook book = new XSSFWorkbook(new ByteArrayInputStream(sent))) {
            assertThat(XlsxSanitizerTest.rows(book.getSheet("Orders")).get(1)).startsWith("1", pseudonym("C-1"), "9.5");
            assertThat(XlsxSanitizerTest.rows(book.getSheet("Archive 2025")).get(1)).containsExactly("moved", pseudonym("C-1"));
        }
        assertThat(XlsxSanitizerTest.everyPart(sent)).doesNotContain("123-45-6789", "111-22-3333", "ann@example.com");
        assertThat(raw.headers().values("X-Gateway-Sanitized")).containsExactly("format=xlsx; dropped=customer_ssn; "
                + "pseudonymized=customer_id,email; rows=3; sheets=Orders[rows=2 dropped=customer_ssn pseudonymized=customer_id,email "
                + "formulas-removed=2],Archive 2025[rows=1 dropped=customer_ssn pseudonymized=customer_id hidden]");
        JsonNode details = sanitizationRecord(raw.headers().values("x-request-id").getFirst()).path("details");
        assertThat(details.path("format").asString()).isEqualTo("xlsx");
        assertThat(details.path("parts").get(1).toString()).isEqualTo("{\"kind\":\"sheet\",\"name\":\"Archive 2025\",\"format\":"
                + "\"sheet\",\"dropped\":[\"customer_ssn\"],\"pseudonymized\":[\"customer_id\"],\"rows\":1,\"notes\":[\"hidden\"]}");
    }

    @Test
    void shouldReadATableSavedAsTextAsATable(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));

        var raw = sdk(ALICE_KEY).files().withRawResponse().create(FileCreateParams.builder()
                .file(Files.writeString(dir.resolve("orders.txt"), ORDERS)).purpose(FilePurpose.USER_DATA).build());

        assertThat(new String(sentFile(), StandardCharsets.UTF_8)).isEqualTo("order_id,customer_id,amount\n1," + pseudonym("C-1") + ",9.50\n");
        assertThat(raw.headers().values("X-Gateway-Sanitized")).containsExactly("format=csv; dropped=customer_ssn; "
                + "pseudonymized=customer_id; rows=1");
    }

    @Test
    void shouldJudgeATableDeclaredAndNamedAsAnImageByItsContent() throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));

        sdk(ALICE_KEY).files().create(FileCreateParams.builder().purpose(FilePurpose.USER_DATA)
                .file(MultipartField.<InputStream>builder().value(new ByteArrayInputStream(ORDERS.getBytes(StandardCharsets.UTF_8)))
                        .filename("chart.png").contentType("image/png").build()).build());

        assertThat(new String(sentFile(), StandardCharsets.UTF_8)).isEqualTo("order_id,customer_id,amount\n1," + pseudonym("C-1") + ",9.50\n");
    }

    @Test
    void shouldSanitizeAnInlineTableSentAsAnImage() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        String image = "data:image/png;base64," + Base64.getEncoder().encodeToString(ORDERS.getBytes(StandardCharsets.UTF_8));
        ResponseInputItem.Message message = ResponseInputItem.Message.builder().role(ResponseInputItem.Message.Role.USER)
                .addInputTextContent("Chart the revenue.").addContent(ResponseInputFile.builder().fileData(image).build()).build();

        var answer = sdk(ALICE_KEY).responses().withRawResponse().create(ResponseCreateParams.builder().model("gpt-4.1")
                .inputOfResponse(List.of(ResponseInputItem.ofMessage(message))).build());

        String sent = JSON.readTree(openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses"))).getFirst().getBodyAsString())
                .path("input").get(0).path("content").get(1).path("file_data").asString();
        assertThat(new String(Base64.getDecoder().decode(sent.substring(sent.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo("order_id,customer_id,amount\n1," + pseudonym("C-1") + ",9.50\n");
        assertThat(answer.headers().values("X-Gateway-Sanitized").getFirst()).startsWith("format=csv; dropped=customer_ssn");
    }

    @Test
    void shouldStreamAJsonArrayOfObjects(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        String json = "[\n {\"customer_id\": \"C-1\", \"customer_ssn\": \"123-45-6789\", \"email\": \"ann@example.com\"}\n]";

        sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(Files.writeString(dir.resolve("orders.json"), json))
                .purpose(FilePurpose.USER_DATA).build());

        assertThat(new String(sentFile(), StandardCharsets.UTF_8)).isEqualTo("[\n{\"customer_id\":\"" + pseudonym("C-1")
                + "\",\"email\":\"" + pseudonym("ann@example.com") + "\"}\n]\n");
    }

    @Test
    void shouldRecompressAGzippedCsvAndSanitizeAZipEntryByEntry(@TempDir Path dir) throws Exception {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("orders.csv", ORDERS.getBytes(StandardCharsets.UTF_8));
        entries.put("book.xlsx", XlsxSanitizerTest.resource("openpyxl-orders.xlsx"));

        sdk(ALICE_KEY).files().create(FileCreateParams.builder()
                .file(Files.write(dir.resolve("orders.csv.gz"), FormatDetectorTest.gzip(ORDERS))).purpose(FilePurpose.USER_DATA).build());
        String gunzipped = ArchivesTest.gunzip(sentFile());
        openAi.resetRequests();
        var zipped = sdk(ALICE_KEY).files().withRawResponse().create(FileCreateParams.builder()
                .file(Files.write(dir.resolve("export.zip"), ArchivesTest.zip(entries))).purpose(FilePurpose.USER_DATA).build());

        assertThat(gunzipped).isEqualTo("order_id,customer_id,amount\n1," + pseudonym("C-1") + ",9.50\n");
        Map<String, byte[]> sent = ArchivesTest.unzip(sentFile());
        assertThat(new String(sent.get("orders.csv"), StandardCharsets.UTF_8)).isEqualTo(gunzipped);
        assertThat(XlsxSanitizerTest.everyPart(sent.get("book.xlsx"))).doesNotContain("123-45-6789", "111-22-3333")
                .contains(pseudonym("C-1"));
        assertThat(zipped.headers().values("X-Gateway-Sanitized").getFirst()).startsWith("format=zip; dropped=customer_ssn; "
                + "pseudonymized=customer_id,email; rows=4; entries=orders.csv[csv rows=1 dropped=customer_ssn pseudonymized=customer_id],"
                + "book.xlsx[xlsx rows=3");
    }

    @Test
    void shouldRefuseARenamedTableItCannotReadAndSendNothing(@TempDir Path dir) throws Exception {
        byte[] nested = ArchivesTest.zip(Map.of("inner.zip", ArchivesTest.zip(Map.of("orders.csv", ORDERS.getBytes(StandardCharsets.UTF_8)))));

        for (Path file : List.of(Files.write(dir.resolve("orders.png"), "PAR1\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1)),
                Files.writeString(dir.resolve("orders.xlsx"), ORDERS), Files.write(dir.resolve("nested.zip"), nested))) {
            assertThatThrownBy(() -> sdk(ALICE_KEY).files().create(FileCreateParams.builder().file(file).purpose(FilePurpose.USER_DATA)
                    .build())).as(file.getFileName().toString())
                    .isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(415);
                        assertThat(e.code()).hasValue("unsupported_file_type");
                    });
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    /** The audit's sanitization record of one request, as an admin reads it. */
    private JsonNode sanitizationRecord(String requestId) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                + "/actuator/audit?user=alice&kind=SANITIZATION&limit=10000")).header("Authorization", "Bearer " + ADMIN_KEY).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            for (JsonNode stored : JSON.readTree(answer.body()).path("records")) {
                if (requestId.equals(stored.path("record").path("requestId").asString(null))) {
                    return stored.path("record");
                }
            }
        }
        throw new AssertionError("no sanitization record for request " + requestId);
    }

    /** The file part of the one upload OpenAI received. */
    private static byte[] sentFile() {
        List<Request.Part> parts = openAi.findAll(postRequestedFor(urlEqualTo("/v1/files"))).getFirst().getParts().stream()
                .filter(part -> "file".equals(part.getName())).map(Request.Part.class::cast).toList();
        assertThat(parts).hasSize(1);
        return parts.getFirst().getBody().asBytes();
    }

    /** Pseudonyms under the test profile's key, computed independently of the gateway. */
    private static String pseudonym(String value) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("test-pseudonymization-key-0001".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }
}
