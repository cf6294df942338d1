package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.secrets.TextGuard;

/**
 * Rewrites one worksheet as it streams, row by row: the first non-empty row is the header; cells of dropped
 * columns are left out and the columns to their right move left; pseudonymized cells carry the same
 * pseudonym a CSV cell of the same text would; other cells are scanned for credentials and personal data;
 * formulas are removed (their cached value kept) when the policy neutralizes formulas, or when columns they
 * may refer to have moved. String cells are not defused with an apostrophe as in CSV: a workbook keeps
 * them typed as strings, which a spreadsheet never evaluates. The new sheet holds
 * the cell values and their styles only: merged ranges, hyperlinks, comments and the like are not sent.
 */
final class SheetRewriter {

    private static final int MAX_COLUMNS = 16_384;
    private static final int MAX_ROWS = 1_048_576;

    private final SanitizationRules rules;
    private final Pseudonymizer.Session pseudonyms;
    private final TextGuard guard;
    private final InstructionCheck instructions;
    private final SharedStrings strings;
    private final String sheet;

    private boolean[] drop;
    private boolean[] pseudonymize;
    private int[] shift;
    private int dropCount;
    private final Set<String> header = new LinkedHashSet<>();
    private final Set<String> dropped = new LinkedHashSet<>();
    private final Set<String> pseudonymized = new LinkedHashSet<>();
    private long rows;
    private long formulasRemoved;
    private final StringBuilder cellXml = new StringBuilder(64);

    SheetRewriter(String sheet, SanitizationRules rules, Pseudonymizer.Session pseudonyms, TextGuard guard,
                  InstructionCheck instructions, SharedStrings strings) {
        this.sheet = sheet;
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.guard = guard;
        this.instructions = instructions;
        this.strings = strings;
    }

    /** One cell as read: where it is, its type and style, its value as text and its formula, if any. */
    private record Cell(int column, String ref, String type, String style, String text, String formula) {
    }

    /** Reads the sheet's XML from {@code in} and writes the rewritten sheet's XML to {@code out}. */
    void rewrite(InputStream in, Xml xml, Utf8Out out) throws IOException {
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                + "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>");
        List<Cell> cells = new ArrayList<>();
        try {
            XMLStreamReader reader = xml.reader(in);
            int row = 0;
            int column = -1;
            String ref = null;
            String type = null;
            String style = null;
            String value = null;
            String inline = null;
            String formula = null;
            while (reader.hasNext()) {
                int event = reader.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    switch (reader.getLocalName()) {
                        case "row" -> {
                            String r = Xml.attribute(reader, "r");
                            row = r == null ? row + 1 : number(r);
                            if (row < 1 || row > MAX_ROWS) {
                                throw invalid("a row number out of range (" + r + ")");
                            }
                            cells.clear();
                            column = -1;
                        }
                        case "c" -> {
                            ref = Xml.attribute(reader, "r");
                            column = ref == null ? column + 1 : column(ref);
                            type = Xml.attribute(reader, "t");
                            style = Xml.attribute(reader, "s");
                            value = null;
                            inline = null;
                            formula = null;
                        }
                        case "v" -> value = reader.getElementText();
                        case "f" -> formula = formula(reader);
                        case "is" -> inline = inlineText(reader);
                        default -> { }
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    if ("c".equals(reader.getLocalName())) {
                        String at = ref != null ? ref : columnName(column) + row;
                        cells.add(new Cell(column, at, type, style, text(type, value, inline, at), formula));
                    } else if ("row".equals(reader.getLocalName())) {
                        row(out, row, cells);
                    }
                }
            }
        } catch (XMLStreamException e) {
            throw Xml.invalid("sheet '" + sheet + "'", e);
        }
        out.write("</sheetData></worksheet>");
    }

    /** Whether the sheet's header names any column the profile requires. */
    boolean hasRequiredColumn() {
        return header.stream().anyMatch(rules.required()::contains);
    }

    /** What was done to this sheet. */
    SanitizationReport.Part part(boolean hidden) {
        List<String> notes = new ArrayList<>();
        if (hidden) {
            notes.add("hidden");
        }
        if (formulasRemoved > 0) {
            notes.add("formulas-removed=" + formulasRemoved);
        }
        SanitizationReport report = new SanitizationReport("sheet", List.copyOf(dropped), List.copyOf(pseudonymized), rows,
                pseudonymized.isEmpty() ? null : pseudonyms.keyId());
        return new SanitizationReport.Part("sheet", sheet, report, notes);
    }

    private void row(Utf8Out out, int row, List<Cell> cells) throws IOException {
        if (drop == null) {
            if (cells.stream().allMatch(cell -> cell.text().isBlank())) {
                return;
            }
            header(cells);
            writeRow(out, row, cells, true);
            return;
        }
        if (writeRow(out, row, cells, false)) {
            rows++;
        }
    }

    private void header(List<Cell> cells) {
        int width = cells.stream().mapToInt(Cell::column).max().orElse(-1) + 1;
        drop = new boolean[width];
        pseudonymize = new boolean[width];
        shift = new int[width];
        for (Cell cell : cells) {
            String name = ColumnNames.normalize(cell.text());
            header.add(name);
            drop[cell.column()] = rules.drops(name);
            pseudonymize[cell.column()] = rules.pseudonymizes(name);
            if (drop[cell.column()]) {
                dropped.add(name);
            } else if (pseudonymize[cell.column()]) {
                pseudonymized.add(name);
            }
        }
        for (int i = 0; i < width; i++) {
            shift[i] = dropCount;
            dropCount += drop[i] ? 1 : 0;
        }
        if (header.stream().anyMatch(rules.required()::contains)) {
            Set<String> missing = new LinkedHashSet<>(rules.required());
            missing.removeAll(header);
            if (!missing.isEmpty()) {
                throw new GatewayException(ErrorCode.MISSING_REQUIRED_COLUMNS, "Sheet '" + sheet + "' lacks the columns profile '"
                        + rules.profile() + "' requires: " + String.join(", ", missing) + ".");
            }
        }
    }

    /** @return whether the row kept a cell */
    private boolean writeRow(Utf8Out out, int row, List<Cell> cells, boolean isHeader) throws IOException {
        boolean open = false;
        for (Cell cell : cells) {
            int column = cell.column();
            boolean known = column < drop.length;
            if (known && drop[column] || cell.text().isEmpty() && cell.formula() == null) {
                continue;
            }
            if (!open) {
                out.write("<row r=\"" + row + "\">");
                open = true;
            }
            String ref = columnName(column - (known ? shift[column] : dropCount)) + row;
            if (!isHeader && known && pseudonymize[column]) {
                writeString(out, ref, cell.style(), pseudonyms.pseudonym(cell.text()));
                continue;
            }
            CharSequence text = cell.text();
            if (!isHeader && guard != null) {
                text = guard.guard(text, () -> "sheet '" + sheet + "' cell " + cell.ref(), true);
            }
            boolean string = text != cell.text() || isString(cell.type());
            if (instructions != null && string) {
                instructions.check(text, row, column + 1);
            }
            String formula = cell.formula();
            if (formula != null && (rules.neutralizeFormulas() || !formulaStillPointsRight(formula))) {
                formulasRemoved++;
                formula = null;
            }
            if (text != cell.text()) {
                writeString(out, ref, cell.style(), text);
            } else {
                writeCell(out, ref, cell, formula);
            }
        }
        if (open) {
            out.write("</row>");
        }
        return open;
    }

    /**
     * Once columns have moved left, or when it names another sheet (whose columns may have moved), a formula
     * would read other cells than it was written for; it goes, like a neutralized one, its value kept.
     */
    private boolean formulaStillPointsRight(String formula) {
        return dropCount == 0 && formula.indexOf('!') < 0;
    }

    private void writeString(Utf8Out out, String ref, String style, CharSequence text) throws IOException {
        cellXml.setLength(0);
        cellXml.append("<c r=\"").append(ref).append('"');
        if (style != null) {
            cellXml.append(" s=\"").append(style).append('"');
        }
        cellXml.append(" t=\"inlineStr\"><is><t xml:space=\"preserve\">");
        escape(text, cellXml);
        cellXml.append("</t></is></c>");
        out.write(cellXml);
    }

    private void writeCell(Utf8Out out, String ref, Cell cell, String formula) throws IOException {
        if (isString(cell.type()) && formula == null) {
            writeString(out, ref, cell.style(), cell.text());
            return;
        }
        cellXml.setLength(0);
        cellXml.append("<c r=\"").append(ref).append('"');
        if (cell.style() != null) {
            cellXml.append(" s=\"").append(cell.style()).append('"');
        }
        String type = isString(cell.type()) ? "str" : cell.type();
        if (type != null && !"n".equals(type)) {
            cellXml.append(" t=\"").append(type).append('"');
        }
        cellXml.append('>');
        if (formula != null) {
            cellXml.append(formula);
        }
        if (!cell.text().isEmpty()) {
            cellXml.append("<v>");
            escape(cell.text(), cellXml);
            cellXml.append("</v>");
        }
        cellXml.append("</c>");
        out.write(cellXml);
    }

    private static boolean isString(String type) {
        return "s".equals(type) || "inlineStr".equals(type) || "str".equals(type);
    }

    /** A cell's value as text: shared strings looked up, inline strings' runs joined. */
    private String text(String type, String value, String inline, String ref) {
        if ("s".equals(type)) {
            return value == null ? "" : strings.get(value, "'" + sheet + "'!" + ref);
        }
        if ("inlineStr".equals(type)) {
            return inline == null ? "" : inline;
        }
        return value == null ? "" : value;
    }

    /** The formula element as it will be written back when formulas are kept. */
    private static String formula(XMLStreamReader reader) throws XMLStreamException {
        StringBuilder xml = new StringBuilder("<f");
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            xml.append(' ').append(reader.getAttributeLocalName(i)).append("=\"");
            escape(reader.getAttributeValue(i), xml);
            xml.append('"');
        }
        xml.append('>');
        escape(reader.getElementText(), xml);
        return xml.append("</f>").toString();
    }

    /** The text of an inline string: its runs joined, phonetic hints left out. */
    private static String inlineText(XMLStreamReader reader) throws XMLStreamException {
        StringBuilder text = new StringBuilder();
        int depth = 1;
        int phonetic = 0;
        while (depth > 0) {
            int event = reader.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                if ("t".equals(reader.getLocalName())) {
                    String value = reader.getElementText();
                    if (phonetic == 0) {
                        text.append(value);
                    }
                } else {
                    depth++;
                    phonetic += "rPh".equals(reader.getLocalName()) ? 1 : 0;
                }
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                depth--;
                phonetic -= "rPh".equals(reader.getLocalName()) ? 1 : 0;
            }
        }
        return text.toString();
    }

    static void escape(CharSequence text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                default -> out.append(c);
            }
        }
    }

    /** The zero-based column of a reference such as {@code AB12}. */
    private int column(String ref) {
        int column = 0;
        int i = 0;
        while (i < ref.length() && Character.isLetter(ref.charAt(i))) {
            column = column * 26 + (Character.toUpperCase(ref.charAt(i)) - 'A' + 1);
            i++;
            if (column > MAX_COLUMNS) {
                break;
            }
        }
        if (i == 0 || column > MAX_COLUMNS) {
            throw invalid("a cell reference out of range (" + ref + ")");
        }
        return column - 1;
    }

    static String columnName(int column) {
        StringBuilder name = new StringBuilder(3);
        for (int n = column + 1; n > 0; n = (n - 1) / 26) {
            name.append((char) ('A' + (n - 1) % 26));
        }
        return name.reverse().toString();
    }

    private int number(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw invalid("a row number that is not a number (" + text + ")");
        }
    }

    private GatewayException invalid(String problem) {
        return new GatewayException(ErrorCode.INVALID_FILE, "Sheet '" + sheet + "' has " + problem
                + ". Save the workbook again and upload it.");
    }
}
