package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.DataFormatter;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.SheetVisibility;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xssf.streaming.SXSSFWorkbook;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/** Workbooks made by Apache POI and by openpyxl, sanitized and read back with POI. */
class XlsxSanitizerTest {

    @Test
    void shouldDropAndPseudonymizeOnEverySheetOfAPoiWorkbookWithSharedStrings() throws Exception {
        byte[] xlsx = workbook(new XSSFWorkbook());

        Rewriting.Result result = new Rewriting().rewrite("orders.xlsx", xlsx);

        try (Workbook book = new XSSFWorkbook(new ByteArrayInputStream(result.bytes()))) {
            assertThat(rows(book.getSheet("Orders"))).containsExactly(
                    List.of("order_id", "customer_id", "amount", "email", "total"),
                    List.of("1", Rewriting.pseudonym("C-1"), "9.5", Rewriting.pseudonym("ann@example.com"), "19"),
                    List.of("2", Rewriting.pseudonym("C-2"), "-12.5", "", "-25"));
            assertThat(rows(book.getSheet("Old"))).containsExactly(List.of("note", "customer_id"), List.of("moved", Rewriting.pseudonym("C-1")));
            assertThat(book.getSheetVisibility(book.getSheetIndex("Old"))).isEqualTo(SheetVisibility.VERY_HIDDEN);
            Cell total = book.getSheet("Orders").getRow(1).getCell(4);
            assertThat(total.getCellType()).as("the formula is gone, its value stays").isEqualTo(CellType.NUMERIC);
        }
        assertThat(everyPart(result.bytes())).doesNotContain("123-45-6789", "987-65-4321", "111-22-3333", "customer_ssn", "C-1",
                "ann@example.com");
        assertThat(result.report().header()).isEqualTo("format=xlsx; dropped=customer_ssn; pseudonymized=customer_id,email; rows=3; "
                + "sheets=Orders[rows=2 dropped=customer_ssn pseudonymized=customer_id,email formulas-removed=2],"
                + "Old[rows=1 dropped=customer_ssn pseudonymized=customer_id hidden]");
    }

    @Test
    void shouldReadInlineStringsOfAStreamedPoiWorkbookAlike() throws Exception {
        byte[] xlsx = workbook(new SXSSFWorkbook());

        Rewriting.Result result = new Rewriting().rewrite("orders.xlsx", xlsx);

        try (Workbook book = new XSSFWorkbook(new ByteArrayInputStream(result.bytes()))) {
            assertThat(rows(book.getSheet("Orders")).get(1)).containsExactly("1", Rewriting.pseudonym("C-1"), "9.5",
                    Rewriting.pseudonym("ann@example.com"), "19");
        }
        assertThat(everyPart(result.bytes())).doesNotContain("123-45-6789", "111-22-3333");
    }

    @Test
    void shouldSanitizeAWorkbookWrittenByOpenpyxlWithItsHiddenColumnAndHiddenSheet() throws Exception {
        byte[] xlsx = resource("openpyxl-orders.xlsx");

        Rewriting.Result result = new Rewriting().rewrite("orders.xlsx", xlsx);

        try (Workbook book = new XSSFWorkbook(new ByteArrayInputStream(result.bytes()))) {
            List<List<String>> orders = rows(book.getSheet("Orders"));
            assertThat(orders.get(0)).containsExactly("order_id", "customer_id", "amount", "order_date", "email", "total");
            assertThat(orders.get(1)).as("the date keeps its style; openpyxl wrote the formula without a value")
                    .containsExactly("1", Rewriting.pseudonym("C-1"), "9.5", "2026-01-02", Rewriting.pseudonym("ann@example.com"), "");
            assertThat(rows(book.getSheet("Archive 2025"))).containsExactly(List.of("note", "customer_id"),
                    List.of("moved", Rewriting.pseudonym("C-1")));
        }
        assertThat(everyPart(result.bytes())).doesNotContain("123-45-6789", "111-22-3333", "ann@example.com");
        assertThat(result.report().parts()).extracting(SanitizationReport.Part::name).containsExactly("Orders", "Archive 2025");
        assertThat(result.report().parts().get(1).notes()).containsExactly("hidden");
    }

    @Test
    void shouldKeepFormulasWhenThePolicyDoesNotNeutralizeThemUnlessColumnsMoved() throws Exception {
        byte[] xlsx = rawWorkbook("<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>amount</t></is></c><c r=\"B1\" t=\"inlineStr\">"
                + "<is><t>double</t></is></c></row><row r=\"2\"><c r=\"A2\"><v>2</v></c><c r=\"B2\"><f>A2*2</f><v>4</v></c></row>");

        Rewriting.Result kept = new Rewriting().keepingFormulas().rewrite("sums.xlsx", xlsx);
        Rewriting.Result moved = new Rewriting().keepingFormulas().rewrite("orders.xlsx", workbook(new XSSFWorkbook()));

        try (Workbook book = new XSSFWorkbook(new ByteArrayInputStream(kept.bytes()))) {
            assertThat(book.getSheetAt(0).getRow(1).getCell(1).getCellFormula()).isEqualTo("A2*2");
            assertThat(book.getSheetAt(0).getRow(1).getCell(1).getNumericCellValue()).isEqualTo(4);
        }
        try (Workbook book = new XSSFWorkbook(new ByteArrayInputStream(moved.bytes()))) {
            assertThat(book.getSheet("Orders").getRow(1).getCell(4).getCellType()).isEqualTo(CellType.NUMERIC);
        }
    }

    @Test
    void shouldCheckTheProfilesColumnsOnEverySheetThatHasAnyOfThem() throws Exception {
        Rewriting requiring = new Rewriting().requiring("orders", Set.of("order_id", "amount", "note"));

        assertThatThrownBy(() -> requiring.rewrite("orders.xlsx", workbook(new XSSFWorkbook())))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.MISSING_REQUIRED_COLUMNS);
                    assertThat(e.getMessage()).contains("Sheet 'Orders'").contains("note");
                });
        Rewriting absent = new Rewriting().requiring("orders", Set.of("order_date"));
        assertThatThrownBy(() -> absent.rewrite("orders.xlsx", workbook(new XSSFWorkbook())))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.getMessage()).contains("No sheet"));
        assertThat(new Rewriting().requiring("orders", Set.of("note")).rewrite("orders.xlsx", workbook(new XSSFWorkbook()))
                .report().rows()).isEqualTo(3);
    }

    @Test
    void shouldScanTheCellsItKeepsForCredentialsNamingTheCellNotTheValue() throws Exception {
        String token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5".substring(0, 36);
        byte[] xlsx = rawWorkbook("<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>note</t></is></c></row>"
                + "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>use " + token + " to deploy</t></is></c></row>");

        assertThatThrownBy(() -> new Rewriting().rewrite("notes.xlsx", xlsx)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.SECRET_DETECTED);
            assertThat(e.getMessage()).contains("sheet 'S' cell A2").doesNotContain(token);
        });
    }

    @Test
    void shouldRefuseMacrosUnlessAllowedAndThenNotSendThem() throws Exception {
        byte[] xlsm = withExtraEntry(workbook(new XSSFWorkbook()), "xl/vbaProject.bin", new byte[] {1, 2, 3});

        assertThatThrownBy(() -> new Rewriting().rewrite("orders.xlsm", xlsm))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_FILE_TYPE);
                    assertThat(e.getMessage()).contains("macros").contains("allow-macro-workbooks");
                });
        assertThatThrownBy(() -> new Rewriting().rewrite("renamed.xlsx", xlsm)).isInstanceOf(GatewayException.class);
        Rewriting.Result allowed = new Rewriting().allowMacros().rewrite("orders.xlsm", xlsm);
        assertThat(entryNames(allowed.bytes())).noneMatch(name -> name.contains("vba"));
    }

    @Test
    void shouldRefuseAWorkbookThatExpandsLikeABomb() throws Exception {
        StringBuilder rows = new StringBuilder();
        String row = "<row><c t=\"inlineStr\"><is><t>x</t></is></c></row>";
        rows.append(row.repeat(200_000));
        byte[] bomb = rawWorkbook(rows.toString());

        assertThatThrownBy(() -> new Rewriting().rewrite("bomb.xlsx", bomb))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE);
                    assertThat(e.getMessage()).contains("zip bomb").contains("100 times");
                });
        assertThatThrownBy(() -> new Rewriting().maxExpanded(2048).rewrite("orders.xlsx", workbook(new XSSFWorkbook())))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.getMessage()).contains("max-expanded-size"));
        assertThatThrownBy(() -> new Rewriting().maxEntries(3).rewrite("orders.xlsx", workbook(new XSSFWorkbook())))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.getMessage()).contains("entries"));
    }

    @Test
    void shouldRefuseAPlainZipNamedLikeAWorkbookAndUnreadableXml() throws Exception {
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(zip)) {
            out.putNextEntry(new ZipEntry("orders.csv"));
            out.write("a,b\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> new Rewriting().rewrite("orders.xlsx", zip.toByteArray()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_FILE_TYPE));
        byte[] doctype = rawWorkbook("<!DOCTYPE x [<!ENTITY a SYSTEM \"file:///etc/passwd\">]><row><c t=\"inlineStr\"><is><t>&a;</t></is></c></row>");
        assertThatThrownBy(() -> new Rewriting().rewrite("orders.xlsx", doctype))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE));
    }

    /**
     * Sheet "Orders": a header with a dropped and two pseudonymized columns, a formula; sheet "Old", very hidden,
     * with an empty first row and another dropped column.
     */
    static byte[] workbook(Workbook book) throws IOException {
        try (book) {
            Sheet orders = book.createSheet("Orders");
            row(orders, 0, "order_id", "customer_id", "Customer_SSN", "amount", "email", "total");
            Row first = row(orders, 1, 1, "C-1", "123-45-6789", 9.5, "ann@example.com", null);
            first.createCell(5).setCellFormula("D2*2");
            first.getCell(5).setCellValue(19);
            Row second = row(orders, 2, 2, "C-2", "987-65-4321", -12.5, null, null);
            second.createCell(5).setCellFormula("D3*2");
            second.getCell(5).setCellValue(-25);
            Sheet old = book.createSheet("Old");
            row(old, 2, "note", "customer_ssn", "customer_id");
            row(old, 3, "moved", "111-22-3333", "C-1");
            book.setSheetVisibility(1, SheetVisibility.VERY_HIDDEN);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            book.write(out);
            return out.toByteArray();
        }
    }

    private static Row row(Sheet sheet, int index, Object... values) {
        Row row = sheet.createRow(index);
        for (int i = 0; i < values.length; i++) {
            if (values[i] instanceof String text) {
                row.createCell(i).setCellValue(text);
            } else if (values[i] instanceof Number number) {
                row.createCell(i).setCellValue(number.doubleValue());
            }
        }
        return row;
    }

    /** A minimal workbook written by hand, with {@code rows} as its one sheet's data. */
    static byte[] rawWorkbook(String rows) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            put(out, "[Content_Types].xml", "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>");
            put(out, "_rels/.rels", "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                    + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\""
                    + " Target=\"xl/workbook.xml\"/></Relationships>");
            put(out, "xl/workbook.xml", "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\""
                    + " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets>"
                    + "<sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>");
            put(out, "xl/_rels/workbook.xml.rels", "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                    + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\""
                    + " Target=\"worksheets/sheet1.xml\"/></Relationships>");
            String sheet = rows.startsWith("<!DOCTYPE") ? rows.substring(0, rows.indexOf("]>") + 2) : "";
            put(out, "xl/worksheets/sheet1.xml", sheet + "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
                    + "<sheetData>" + rows.substring(sheet.length()) + "</sheetData></worksheet>");
        }
        return bytes.toByteArray();
    }

    private static void put(ZipOutputStream out, String name, String content) throws IOException {
        out.putNextEntry(new ZipEntry(name));
        out.write(content.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }

    private static byte[] withExtraEntry(byte[] zip, String name, byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip)); ZipOutputStream out = new ZipOutputStream(bytes)) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
            out.putNextEntry(new ZipEntry(name));
            out.write(content);
            out.closeEntry();
        }
        return bytes.toByteArray();
    }

    /** Every cell of every row as Excel would show it. */
    static List<List<String>> rows(Sheet sheet) {
        DataFormatter format = new DataFormatter();
        List<List<String>> rows = new ArrayList<>();
        for (Row row : sheet) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < row.getLastCellNum(); i++) {
                Cell cell = row.getCell(i);
                cells.add(cell == null ? "" : cell.getCellType() == CellType.FORMULA ? format.formatRawCellContents(
                        cell.getNumericCellValue(), 0, "General") : format.formatCellValue(cell));
            }
            rows.add(cells);
        }
        return rows;
    }

    /** The text of every part of a zip, to search for what must not be there. */
    static String everyPart(byte[] zip) throws IOException {
        StringBuilder text = new StringBuilder();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                text.append(entry.getName()).append('\n').append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
            }
        }
        return text.toString();
    }

    static List<String> entryNames(byte[] zip) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                names.add(entry.getName());
            }
        }
        return names;
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = XlsxSanitizerTest.class.getResourceAsStream("/sanitize/" + name)) {
            return in.readAllBytes();
        }
    }
}
