package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

class FormatDetectorTest {

    private static final Set<String> GOVERNED = Set.of("customer_ssn", "customer_id", "email");
    private static final FormatDetector DETECTOR = new FormatDetector(List.of("txt", "md", "pdf", "png", "jpg"),
            tools.jackson.databind.json.JsonMapper.builder().build());

    private static FormatDetector.Detected detect(String name, byte[] content) {
        return DETECTOR.detect(name, content, content.length, GOVERNED);
    }

    private static FormatDetector.Detected detect(String name, String content) {
        return detect(name, content.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders.txt", "orders.log", "orders", "orders.png", "orders.pdf", "orders.dat", "ORDERS.TXT"})
    void shouldReadATableUnderAnyNameOnceItsHeaderNamesAGovernedColumn(String name) {
        assertThat(detect(name, "order_id,Customer_SSN,amount\n1,123-45-6789,9.50\n"))
                .isEqualTo(new FormatDetector.Detected(FileFormat.CSV, ','));
    }

    @ParameterizedTest
    @CsvSource(delimiterString = "|||", value = {
            "order_id\tcustomer_ssn\tamount|||TSV",
            "order_id;customer_ssn;amount|||CSV",
            "order_id|customer_ssn|amount|||CSV",
            "\"order id, primary\",email|||CSV"})
    void shouldFindTheDelimiterTheHeaderUses(String header, FileFormat format) {
        FormatDetector.Detected detected = detect("export.txt", header + "\n1\t2\t3\n");

        assertThat(detected.format()).isEqualTo(format);
        assertThat(FormatDetector.headerFields(header, detected.delimiter()).stream().map(ColumnNames::normalize))
                .containsAnyElementsOf(GOVERNED);
    }

    @Test
    void shouldReadASemicolonCsvNamedCsvWithItsOwnDelimiter() {
        assertThat(detect("orders.csv", "id;customer_ssn;amount\n1;2;3\n").delimiter()).isEqualTo(';');
        assertThat(detect("orders.csv", "id,name\n1,2\n").delimiter()).isEqualTo(',');
        assertThat(detect("orders.tsv", "id\tname\n").delimiter()).isEqualTo('\t');
    }

    @Test
    void shouldKeepProseAsTextWhenItsFirstLineNamesNoGovernedColumn() {
        assertThat(detect("notes.txt", "Meeting notes, Tuesday\nWe talked about revenue.\n").format()).isEqualTo(FileFormat.TEXT);
        assertThat(detect("notes.png", "id,amount\n1,2\n").format()).isEqualTo(FileFormat.TEXT);
        assertThat(detect("notes.md", "{\\bf Revenue} by month\n").format()).isEqualTo(FileFormat.TEXT);
        assertThat(detect("notes.txt", "{see below}\n").format()).isEqualTo(FileFormat.TEXT);
    }

    @Test
    void shouldRefuseTextWithoutATableUnderANameThePolicyDoesNotList() {
        assertRefused("script.py", "import os\nprint(os.environ)\n", "type the policy does not accept");
        assertRefused("data", "id,amount\n1,2\n", "type the policy does not accept");
    }

    @Test
    void shouldReadJsonWhereverItHides() {
        assertThat(detect("events.txt", "{\"email\":\"a@b.c\"}\n{\"email\":\"d@e.f\"}\n").format()).isEqualTo(FileFormat.JSONL);
        assertThat(detect("events", "{\"email\":\"a@b.c\"}\n").format()).isEqualTo(FileFormat.JSONL);
        assertThat(detect("events.json", "  [\n  {\"email\":\"a@b.c\"}\n]").format()).isEqualTo(FileFormat.JSON_ARRAY);
        assertThat(detect("events.png", "[{\"email\":\"a@b.c\"}]").format()).isEqualTo(FileFormat.JSON_ARRAY);
        assertThat(detect("events.json", "{\"email\":\"a@b.c\"}\n").format()).isEqualTo(FileFormat.JSONL);
        assertThat(detect("events.jsonl", "\uFEFF{\"email\":\"a@b.c\"}\n").format()).isEqualTo(FileFormat.JSONL);
        String longLine = "{\"customer_ssn\":\"123-45-6789\",\"note\":\"" + "x".repeat(FormatDetector.HEAD_BYTES) + "\"}\n";
        assertThat(detect("events.txt", longLine.substring(0, FormatDetector.HEAD_BYTES)).format()).isEqualTo(FileFormat.JSONL);
    }

    @Test
    void shouldRefuseContentThatContradictsADataFormatsName() {
        assertRefused("orders.csv", "{\"a\":1}\n", "holds JSON, not csv; name it .jsonl");
        assertRefused("orders.csv", "[{\"a\":1}]", "name it .json");
        assertRefused("orders.jsonl", "a,b\n1,2\n", "one JSON object per line");
        assertRefused("orders.json", "a,b\n1,2\n", "array of objects");
        assertRefused("orders.xlsx", "order_id,customer_ssn\n1,2\n", "holds text, not a workbook");
        assertRefused("orders.csv.gz", "order_id,customer_ssn\n1,2\n", "holds text, not gzip-compressed data");
        assertRefused("orders.zip", "order_id,customer_ssn\n", "holds text, not a zip archive");
        assertRefused("orders.csv", new byte[] {'P', 'K', 3, 4, 0, 0}, "holds a zip archive, not delimited text");
        assertRefused("orders.csv", gzip("a,b\n"), "holds gzip-compressed data, not delimited text");
        assertRefused("orders.csv", new byte[] {'a', 0, 'b', 1, 2, 3, 0, 0, 9, 9}, "binary data");
        assertRefused("orders.xlsx", gzip("a,b\n"), "not a workbook");
    }

    @Test
    void shouldJudgeCompressedAndArchivedContentWhateverItsName() {
        assertThat(detect("orders.csv.gz", gzip("a,b\n")).format()).isEqualTo(FileFormat.GZIP);
        assertThat(detect("orders.png", gzip("a,b\n")).format()).isEqualTo(FileFormat.GZIP);
        assertThat(detect("orders", new byte[] {'P', 'K', 3, 4, 0}).format()).isEqualTo(FileFormat.ZIP);
        assertThat(detect("orders.pdf", new byte[] {'P', 'K', 3, 4, 0}).format()).isEqualTo(FileFormat.ZIP);
        assertThat(detect("orders.xlsx", new byte[] {'P', 'K', 3, 4, 0}).format()).isEqualTo(FileFormat.ZIP);
    }

    @Test
    void shouldPassImagesAndPdfsOnTheOpaqueListOnly() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
        assertThat(detect("chart.png", png).format()).isEqualTo(FileFormat.OPAQUE);
        assertThat(detect("chart.jpg", png).format()).isEqualTo(FileFormat.OPAQUE);
        assertThat(detect("report.pdf", "%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n").format()).isEqualTo(FileFormat.OPAQUE);
        assertRefused("chart.bmp", png, "type the policy does not accept");
    }

    @Test
    void shouldRefuseTablesInFormatsItCannotReadWhateverTheName() {
        assertRefused("photo.png", bytes("PAR1", 0, 0, 0x15, 4), "Parquet");
        assertRefused("photo.png", bytes("SQLite format 3", 0, 16), "SQLite");
        assertRefused("photo.png", bytes("", 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), "legacy Office");
        assertRefused("photo.png", bytes("", 0xfd, '7', 'z', 'X', 'Z', 0), "archive format other than gzip and zip");
        assertRefused("photo.png", bytes("", 0x7f, 'E', 'L', 'F', 2, 1, 1, 0), "a program");
        assertRefused("notes.txt", "\uFEFFcustomer_ssn\t123".getBytes(StandardCharsets.UTF_16LE), "UTF-16");
        assertRefused("notes.txt", "customer_ssn\tname\n".getBytes(StandardCharsets.UTF_16LE), "UTF-16");
    }

    @Test
    void shouldKeepACsvWhoseHeaderStartsLikeABinaryMagicNumber() {
        assertThat(detect("people.txt", "ORCID,email\n0000-0001,a@b.c\n").format()).isEqualTo(FileFormat.CSV);
        assertThat(detect("people.csv", "MZ,BZh,PAR1\n1,2,3\n").format()).isEqualTo(FileFormat.CSV);
    }

    private static void assertRefused(String name, String content, String message) {
        assertRefused(name, content.getBytes(StandardCharsets.UTF_8), message);
    }

    private static void assertRefused(String name, byte[] content, String message) {
        assertThatThrownBy(() -> detect(name, content)).as(name).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_FILE_TYPE);
            assertThat(e.getMessage()).contains(message);
        });
    }

    private static byte[] bytes(String prefix, int... rest) {
        byte[] ascii = prefix.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[ascii.length + rest.length + 32];
        System.arraycopy(ascii, 0, all, 0, ascii.length);
        for (int i = 0; i < rest.length; i++) {
            all[ascii.length + i] = (byte) rest[i];
        }
        return all;
    }

    static byte[] gzip(String text) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(text.getBytes(StandardCharsets.UTF_8));
            }
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
