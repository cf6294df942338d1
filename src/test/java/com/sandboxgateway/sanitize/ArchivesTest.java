package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.config.PolicyProperties;

/** Compressed and archived files: unpacked one level, every part held to the same rules, bombs refused. */
class ArchivesTest {

    private static final String ORDERS = "order_id,customer_id,customer_ssn\n1,C-1,123-45-6789\n";
    private static final String SANITIZED = "order_id,customer_id\n1," + Rewriting.pseudonym("C-1") + "\n";

    @Test
    void shouldDecompressSanitizeAndRecompressAGzippedTable() throws Exception {
        Rewriting.Result result = new Rewriting().rewrite("orders.csv.gz", FormatDetectorTest.gzip(ORDERS));

        assertThat(gunzip(result.bytes())).isEqualTo(SANITIZED);
        assertThat(result.report().header()).isEqualTo("format=gzip; dropped=customer_ssn; pseudonymized=customer_id; rows=1; "
                + "entries=orders.csv[csv rows=1 dropped=customer_ssn pseudonymized=customer_id]");
    }

    @Test
    void shouldSanitizeAZipEntryByEntryJudgingEachByItsContent() throws Exception {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("data/", new byte[0]);
        entries.put("data/orders.csv", ORDERS.getBytes(StandardCharsets.UTF_8));
        entries.put("data/orders.txt", ORDERS.getBytes(StandardCharsets.UTF_8));
        entries.put("events.json", "[{\"email\":\"a@b.c\",\"customer_ssn\":\"1\"}]".getBytes(StandardCharsets.UTF_8));
        entries.put("book.xlsx", XlsxSanitizerTest.workbook(new XSSFWorkbook()));
        entries.put("notes.md", "# Notes\nnothing governed here\n".getBytes(StandardCharsets.UTF_8));

        Rewriting.Result result = new Rewriting().rewrite("export.zip", zip(entries));

        Map<String, byte[]> out = unzip(result.bytes());
        assertThat(out.keySet()).containsExactly("data/", "data/orders.csv", "data/orders.txt", "events.json", "book.xlsx", "notes.md");
        assertThat(text(out.get("data/orders.csv"))).isEqualTo(SANITIZED);
        assertThat(text(out.get("data/orders.txt"))).isEqualTo(SANITIZED);
        assertThat(text(out.get("events.json"))).isEqualTo("[\n{\"email\":\"" + Rewriting.pseudonym("a@b.c") + "\"}\n]\n");
        assertThat(XlsxSanitizerTest.everyPart(out.get("book.xlsx"))).doesNotContain("123-45-6789").contains(Rewriting.pseudonym("C-1"));
        assertThat(text(out.get("notes.md"))).isEqualTo("# Notes\nnothing governed here\n");
        assertThat(result.report().rows()).isEqualTo(2 + 1 + 3);
        assertThat(result.report().parts()).extracting(part -> part.report().format())
                .containsExactly("csv", "csv", "json", "xlsx", "text");
        assertThat(result.report().header()).startsWith("format=zip; dropped=customer_ssn; pseudonymized=customer_id,email; rows=6; "
                + "entries=data/orders.csv[csv rows=1 dropped=customer_ssn pseudonymized=customer_id],");
    }

    @Test
    void shouldRefuseArchivesInsideArchives() throws Exception {
        byte[] inner = zip(Map.of("orders.csv", ORDERS.getBytes(StandardCharsets.UTF_8)));

        assertRefused(new Rewriting(), "outer.zip", zip(Map.of("inner.zip", inner)), ErrorCode.UNSUPPORTED_FILE_TYPE,
                "Entry 'inner.zip' of the archive: 'inner.zip' is an archive inside an archive");
        assertRefused(new Rewriting(), "outer.zip", zip(Map.of("orders.csv.gz", FormatDetectorTest.gzip(ORDERS))),
                ErrorCode.UNSUPPORTED_FILE_TYPE, "archive inside an archive");
        assertRefused(new Rewriting(), "inner.zip.gz", gzip(inner), ErrorCode.UNSUPPORTED_FILE_TYPE, "archive inside an archive");
    }

    @Test
    void shouldRefuseZipsByPolicyAndEntriesThatBreakARule() throws Exception {
        byte[] archive = zip(Map.of("orders.csv", ORDERS.getBytes(StandardCharsets.UTF_8)));

        assertRefused(new Rewriting().archives(PolicyProperties.ArchivePolicy.REFUSE), "export.zip", archive,
                ErrorCode.UNSUPPORTED_FILE_TYPE, "gateway.policy.org.files.archives");
        assertRefused(new Rewriting(), "export.zip", zip(Map.of("run.py", "print(1)\n".getBytes(StandardCharsets.UTF_8))),
                ErrorCode.UNSUPPORTED_FILE_TYPE, "Entry 'run.py' of the archive");
        assertRefused(new Rewriting(), "export.zip", zip(Map.of("bad.csv", "a,b\n1\n".getBytes(StandardCharsets.UTF_8))),
                ErrorCode.INVALID_FILE, "Entry 'bad.csv' of the archive: Line 2");
        assertRefused(new Rewriting(), "export.zip", zip(Map.of("../etc/orders.csv", ORDERS.getBytes(StandardCharsets.UTF_8))),
                ErrorCode.INVALID_FILE, "points outside the archive");
    }

    @Test
    void shouldRefuseZipAndGzipBombs() throws Exception {
        byte[] zeros = new byte[20 << 20];
        Map<String, byte[]> bomb = new LinkedHashMap<>();
        bomb.put("orders.csv", ("a,b\n" + "1,2\n".repeat(1_000_000)).getBytes(StandardCharsets.UTF_8));

        assertRefused(new Rewriting(), "bomb.zip", zip(bomb), ErrorCode.INVALID_FILE, "expands more than 100 times");
        assertRefused(new Rewriting(), "bomb.csv.gz", gzip(("a,b\n" + "1,2\n".repeat(1_000_000)).getBytes(StandardCharsets.UTF_8)),
                ErrorCode.INVALID_FILE, "zip bomb");
        assertRefused(new Rewriting().maxExpanded(1 << 20), "zeros.png.gz", gzip(zeros), ErrorCode.INVALID_FILE, "max-expanded-size");
        Map<String, byte[]> many = new LinkedHashMap<>();
        for (int i = 0; i < 101; i++) {
            many.put("part" + i + ".csv", "a\n1\n".getBytes(StandardCharsets.UTF_8));
        }
        assertRefused(new Rewriting(), "many.zip", zip(many), ErrorCode.INVALID_FILE, "101 entries");
        assertRefused(new Rewriting(), "cut.csv.gz", java.util.Arrays.copyOf(FormatDetectorTest.gzip(ORDERS), 20),
                ErrorCode.INVALID_FILE, "corrupt or cut short");
    }

    private static void assertRefused(Rewriting rewriting, String name, byte[] content, ErrorCode code, String message) {
        assertThatThrownBy(() -> rewriting.rewrite(name, content)).as(name).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(message);
        });
    }

    static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                out.putNextEntry(new ZipEntry(entry.getKey()));
                out.write(entry.getValue());
                out.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    static Map<String, byte[]> unzip(byte[] zip) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                entries.put(entry.getName(), in.readAllBytes());
            }
        }
        return entries;
    }

    static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(bytes)) {
            out.write(content);
        }
        return bytes.toByteArray();
    }

    static String gunzip(byte[] gz) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
