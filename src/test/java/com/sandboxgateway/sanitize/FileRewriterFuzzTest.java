package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.DataFormatter;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.sandboxgateway.api.GatewayException;

import tools.jackson.databind.json.JsonMapper;

/**
 * Files as the gateway reads them, from fuzzed bytes: whatever arrives (CSV, TSV, JSON Lines, JSON
 * arrays, XLSX, zip, gzip, text, anything) is rewritten or refused with a typed {@link GatewayException},
 * never another exception; and in a table of any shape nothing of a dropped column survives. Replays
 * {@code FileRewriterFuzzTestInputs/} in every build; {@code JAZZER_FUZZ=1} fuzzes (README, Fuzzing).
 */
class FileRewriterFuzzTest {

    private static final List<String> NAMES = List.of("data.csv", "data.tsv", "data.jsonl", "data.json", "book.xlsx",
            "bundle.zip", "data.csv.gz", "notes.txt", "upload");
    private static final List<String> DROPPED_HEADERS = List.of("customer_ssn", "CUSTOMER_SSN", " customer_ssn ",
            "Customer_SSN\t", "ｃｕｓｔｏｍｅｒ_ｓｓｎ");
    /** Only dropped cells hold this; fuzzed cells have it taken out. */
    private static final String MARK = "DROPPEDVALUE";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    enum Format { CSV, TSV, JSON_LINES, JSON_ARRAY, XLSX }

    @FuzzTest(maxDuration = "60s")
    void anyBytesAreRewrittenOrRefused(FuzzedDataProvider data) throws IOException {
        String name = data.pickValue(NAMES);
        byte[] content = data.consumeRemainingAsBytes();
        try {
            new Rewriting().rewrite(name, content);
        } catch (GatewayException refused) {
            assertThat(refused.code()).isNotNull();
            assertThat(refused.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "60s")
    void droppedColumnNeverSurvives(FuzzedDataProvider data) throws IOException {
        Format format = data.pickValue(Format.values());
        List<String> headers = new ArrayList<>();
        for (int i = data.consumeInt(0, 4); i > 0; i--) {
            headers.add(fuzzed(data, 12));
        }
        int dropped = data.consumeInt(0, headers.size());
        headers.add(dropped, data.pickValue(DROPPED_HEADERS));
        List<List<String>> rows = new ArrayList<>();
        for (int r = data.consumeInt(1, 6); r > 0; r--) {
            List<String> row = new ArrayList<>();
            for (int i = 0; i < headers.size(); i++) {
                row.add(i == dropped ? MARK + data.consumeInt(0, 999) : fuzzed(data, 16));
            }
            rows.add(row);
        }
        byte[] file = write(format, headers, rows);
        Rewriting.Result result;
        try {
            result = new Rewriting().rewrite(name(format), file);
        } catch (GatewayException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        String out = format == Format.XLSX ? cells(result.bytes()) : new String(result.bytes(), StandardCharsets.UTF_8);
        assertThat(out).doesNotContain(MARK);
    }

    private static String fuzzed(FuzzedDataProvider data, int maxLength) {
        return data.consumeString(maxLength).replace(MARK, "");
    }

    private static String name(Format format) {
        return switch (format) {
            case CSV -> "data.csv";
            case TSV -> "data.tsv";
            case JSON_LINES -> "data.jsonl";
            case JSON_ARRAY -> "data.json";
            case XLSX -> "book.xlsx";
        };
    }

    private static byte[] write(Format format, List<String> headers, List<List<String>> rows) throws IOException {
        return switch (format) {
            case CSV -> delimited(headers, rows, ',');
            case TSV -> delimited(headers, rows, '\t');
            case JSON_LINES -> {
                StringBuilder lines = new StringBuilder();
                for (List<String> row : rows) {
                    lines.append(JSON.writeValueAsString(object(headers, row))).append('\n');
                }
                yield lines.toString().getBytes(StandardCharsets.UTF_8);
            }
            case JSON_ARRAY -> JSON.writeValueAsBytes(rows.stream().map(row -> object(headers, row)).toList());
            case XLSX -> workbook(headers, rows);
        };
    }

    /** The dropped header's value wins where a fuzzed header has the same name. */
    private static Map<String, String> object(List<String> headers, List<String> row) {
        Map<String, String> object = new LinkedHashMap<>();
        for (int i = 0; i < headers.size(); i++) {
            if (!object.containsKey(headers.get(i)) || row.get(i).startsWith(MARK)) {
                object.put(headers.get(i), row.get(i));
            }
        }
        return object;
    }

    private static byte[] delimited(List<String> headers, List<List<String>> rows, char delimiter) {
        StringBuilder text = new StringBuilder();
        for (List<String> row : concat(headers, rows)) {
            text.append(String.join(String.valueOf(delimiter), row.stream().map(FileRewriterFuzzTest::quote).toList())).append("\r\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String quote(String cell) {
        return "\"" + cell.replace("\"", "\"\"") + "\"";
    }

    private static List<List<String>> concat(List<String> headers, List<List<String>> rows) {
        List<List<String>> all = new ArrayList<>(List.of(headers));
        all.addAll(rows);
        return all;
    }

    private static byte[] workbook(List<String> headers, List<List<String>> rows) throws IOException {
        try (XSSFWorkbook book = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            Sheet sheet = book.createSheet("data");
            List<List<String>> all = concat(headers, rows);
            for (int r = 0; r < all.size(); r++) {
                Row row = sheet.createRow(r);
                for (int c = 0; c < all.get(r).size(); c++) {
                    row.createCell(c).setCellValue(all.get(r).get(c));
                }
            }
            book.write(out);
            return out.toByteArray();
        }
    }

    private static String cells(byte[] xlsx) throws IOException {
        StringBuilder text = new StringBuilder();
        DataFormatter formatter = new DataFormatter();
        try (XSSFWorkbook book = new XSSFWorkbook(new ByteArrayInputStream(xlsx))) {
            for (Sheet sheet : book) {
                for (Row row : sheet) {
                    for (Cell cell : row) {
                        text.append(formatter.formatCellValue(cell)).append('\n');
                    }
                }
            }
        }
        return text.toString();
    }
}
