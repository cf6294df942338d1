package com.sandboxgateway.sanitize;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.SAXParserFactory;

import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.openxml4j.opc.PackageAccess;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.xssf.eventusermodel.ReadOnlySharedStringsTable;
import org.apache.poi.xssf.eventusermodel.XSSFReader;
import org.apache.poi.xssf.eventusermodel.XSSFSheetXMLHandler;
import org.apache.poi.xssf.model.StylesTable;
import org.apache.poi.xssf.streaming.SXSSFWorkbook;
import org.apache.poi.xssf.usermodel.XSSFComment;
import org.xml.sax.InputSource;
import org.xml.sax.XMLReader;

/**
 * Why the XLSX sanitizer reads and writes workbooks with the JDK's zip and StAX rather than Apache POI:
 * the same work (every sheet streamed, customer_ssn dropped, customer_id and email pseudonymized, a new
 * workbook written), without the secret scan, done both ways on one file, best of 3, with the peak heap.
 * POI's streaming pair is its event reader ({@code XSSFReader} + {@code XSSFSheetXMLHandler}, shared strings
 * held on the heap) and {@code SXSSFWorkbook} (rows spooled to temporary files, then zipped).
 *
 * <p>Run: {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt &&
 * java -Xmx256m -cp target/classes:target/test-classes:$(cat target/cp.txt)
 * com.sandboxgateway.sanitize.WorkbookLibraryBenchmark /tmp/sanitize-bench-data/orders_500000.xlsx}
 */
public final class WorkbookLibraryBenchmark {

    public static void main(String[] args) throws Exception {
        Path workbook = Path.of(args[0]);
        Path out = Files.createTempFile("workbook-benchmark-", ".xlsx");
        try {
            for (int round = 0; round < 3; round++) {
                measure("gateway (JDK zip + StAX)", () -> gateway(workbook, out), out);
                measure("Apache POI (XSSFReader + SXSSF)", () -> poi(workbook, out), out);
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private interface Run {
        void run() throws Exception;
    }

    private static void measure(String name, Run run, Path out) throws Exception {
        System.gc();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long start = System.nanoTime();
        run.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        long peak = heap.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
        System.out.printf("%-34s %6.2f s  peak heap (sum of pool peaks) %4d MiB  output %5.1f MB%n", name, seconds, peak >> 20,
                Files.size(out) / 1e6);
    }

    private static void gateway(Path workbook, Path out) throws IOException {
        try (OutputStream target = new BufferedOutputStream(Files.newOutputStream(out), 64 * 1024)) {
            new Rewriting().unscanned().maxExpanded(4L << 30).rewrite(workbook, target);
        }
    }

    private static void poi(Path workbook, Path out) throws Exception {
        Pseudonymizer.Session pseudonyms = CsvSanitizerTest.PSEUDONYMIZER.session();
        try (OPCPackage pkg = OPCPackage.open(workbook.toFile(), PackageAccess.READ); SXSSFWorkbook target = new SXSSFWorkbook(100);
             OutputStream sink = new BufferedOutputStream(Files.newOutputStream(out), 64 * 1024)) {
            XSSFReader reader = new XSSFReader(pkg);
            ReadOnlySharedStringsTable strings = new ReadOnlySharedStringsTable(pkg);
            StylesTable styles = reader.getStylesTable();
            XSSFReader.SheetIterator sheets = (XSSFReader.SheetIterator) reader.getSheetsData();
            while (sheets.hasNext()) {
                try (InputStream sheet = sheets.next()) {
                    Sheet written = target.createSheet(sheets.getSheetName());
                    XMLReader parser = SAXParserFactory.newDefaultNSInstance().newSAXParser().getXMLReader();
                    parser.setContentHandler(new XSSFSheetXMLHandler(styles, strings, new Rows(written, pseudonyms), false));
                    parser.parse(new InputSource(sheet));
                }
            }
            target.write(sink);
        }
    }

    /** The same rules as the gateway's: the first row names the columns. */
    private static final class Rows implements XSSFSheetXMLHandler.SheetContentsHandler {
        private final Sheet sheet;
        private final Pseudonymizer.Session pseudonyms;
        private final List<String> header = new ArrayList<>();
        private Row row;
        private boolean first = true;

        Rows(Sheet sheet, Pseudonymizer.Session pseudonyms) {
            this.sheet = sheet;
            this.pseudonyms = pseudonyms;
        }

        @Override
        public void startRow(int rowNum) {
            row = sheet.createRow(rowNum);
        }

        @Override
        public void endRow(int rowNum) {
            first = false;
        }

        @Override
        public void cell(String ref, String value, XSSFComment comment) {
            int column = new CellReference(ref).getCol();
            if (first) {
                header.add(ColumnNames.normalize(value));
            }
            String name = column < header.size() ? header.get(column) : "";
            if (Rewriting.DROP.contains(name)) {
                return;
            }
            int dropped = (int) header.subList(0, Math.min(column, header.size())).stream().filter(Rewriting.DROP::contains).count();
            String text = !first && Rewriting.PSEUDONYMIZE.contains(name) ? pseudonyms.pseudonym(value) : value;
            row.createCell(column - dropped).setCellValue(text);
        }
    }

    private WorkbookLibraryBenchmark() {
    }
}
