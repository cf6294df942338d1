package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.secrets.TextGuard;

/**
 * Rewrites a CSV or TSV file (RFC 4180: quoted fields may hold delimiters, quotes and line breaks)
 * record by record as it streams: dropped columns never reach the output, pseudonymized ones carry
 * keyed pseudonyms, formula-like cells are defused. Strict about what it cannot read safely: invalid
 * UTF-8, an unclosed quote or a row whose width differs from the header is refused with its line.
 *
 * <p>Made for tens of millions of cells: runs of plain characters are copied in bulk into one record
 * buffer, cells are views into it, and whether a cell needs quotes is known from parsing (only a quoted
 * cell or one holding a quote can), so a cell is passed over once in, once out.
 */
final class CsvSanitizer {

    private static final int EOF = -1;

    private final char delimiter;
    private final SanitizationRules rules;
    private final Pseudonymizer.Session pseudonyms;
    private final String format;

    private Utf8Chars source;
    private final char[] buffer = new char[64 * 1024];
    private int position;
    private int limit;
    private long line = 1;

    /** The current record's characters, its fields' bounds, and which fields were quoted or hold a quote. */
    private char[] record = new char[4096];
    private int recordLength;
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private boolean[] special = new boolean[16];
    private int fieldCount;
    private Cell[] cells = new Cell[0];

    private final TextGuard guard;
    private final InstructionCheck instructions;

    /**
     * @param guard scans the cells no column rule rewrites for credentials and personal data; null: none
     * @param instructions checks the cells that go upstream as text (header included) for instructions
     *        aimed at a model; null: none
     */
    CsvSanitizer(char delimiter, SanitizationRules rules, Pseudonymizer.Session pseudonyms, TextGuard guard,
                 InstructionCheck instructions) {
        this.delimiter = delimiter;
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.guard = guard;
        this.instructions = instructions;
        this.format = delimiter == '\t' ? "tsv" : "csv";
    }

    SanitizationReport sanitize(InputStream in, OutputStream outStream) throws IOException {
        source = new Utf8Chars(in);
        Utf8Out out = new Utf8Out(outStream);
        boolean bom = peek() == '\uFEFF';
        if (bom) {
            position++;
            out.write('\uFEFF');
        }
        long headerLine = line;
        String terminator = readRecord();
        if (terminator == null) {
            throw invalid(1, "the file is empty; a data file starts with a header row");
        }
        int width = fieldCount;
        Column[] columns = columns(headerLine);
        writeRecord(out, columns, 0, terminator);
        long rows = 0;
        for (long recordLine = line; (terminator = readRecord()) != null; recordLine = line) {
            if (fieldCount == 1 && ends[0] == starts[0]) {
                continue;
            }
            if (fieldCount != width) {
                throw invalid(recordLine, "the row has " + fieldCount + " fields where the header has " + width);
            }
            writeRecord(out, columns, recordLine, terminator);
            rows++;
        }
        out.flush();
        List<String> dropped = new ArrayList<>();
        List<String> pseudonymized = new ArrayList<>();
        for (Column column : columns) {
            if (column.drop) {
                dropped.add(column.name);
            } else if (column.pseudonymize) {
                pseudonymized.add(column.name);
            }
        }
        return new SanitizationReport(format, dropped, pseudonymized, rows, pseudonymized.isEmpty() ? null : pseudonyms.keyId());
    }

    private Column[] columns(long headerLine) {
        Column[] columns = new Column[fieldCount];
        Set<String> present = new LinkedHashSet<>();
        for (int i = 0; i < fieldCount; i++) {
            String name = ColumnNames.normalize(cell(i).toString());
            present.add(name);
            columns[i] = new Column(name, rules.drops(name), rules.pseudonymizes(name));
        }
        Set<String> missing = new LinkedHashSet<>(rules.required());
        missing.removeAll(present);
        if (!missing.isEmpty()) {
            throw new GatewayException(ErrorCode.MISSING_REQUIRED_COLUMNS, "The file lacks the columns profile '"
                    + rules.profile() + "' requires: " + String.join(", ", missing) + ".");
        }
        return columns;
    }

    /** Reads one record; returns its line terminator ("" at the end), or null at the end of input. */
    private String readRecord() throws IOException {
        fieldCount = 0;
        recordLength = 0;
        startField();
        long quoteLine = 0;
        boolean quoted = false;
        boolean atFieldStart = true;
        while (true) {
            if (position == limit && !fill()) {
                if (quoted) {
                    throw invalid(quoteLine, "a quoted field opened here is never closed");
                }
                endField();
                return fieldCount == 1 && recordLength == 0 && atFieldStart ? null : "";
            }
            int run = position;
            if (quoted) {
                while (run < limit && buffer[run] != '"' && buffer[run] != '\n' && buffer[run] != '\r') {
                    run++;
                }
            } else {
                while (run < limit && buffer[run] != delimiter && buffer[run] != '"' && buffer[run] != '\n' && buffer[run] != '\r') {
                    run++;
                }
            }
            if (run > position) {
                append(buffer, position, run - position);
                position = run;
                atFieldStart &= quoted;
                continue;
            }
            char c = buffer[position++];
            if (quoted) {
                if (c == '"') {
                    if (peek() == '"') {
                        position++;
                        append('"');
                    } else {
                        quoted = false;
                    }
                } else {
                    if (c == '\n' || c == '\r' && peek() != '\n') {
                        line++;
                    }
                    append(c);
                }
            } else if (c == '"') {
                special[fieldCount - 1] = true;
                if (atFieldStart) {
                    quoted = true;
                    quoteLine = line;
                } else {
                    append(c);
                }
                atFieldStart = false;
            } else if (c == delimiter) {
                endField();
                startField();
                atFieldStart = true;
            } else if (c == '\n') {
                line++;
                endField();
                return "\n";
            } else {
                line++;
                endField();
                if (peek() == '\n') {
                    position++;
                    return "\r\n";
                }
                return "\r";
            }
        }
    }

    private void startField() {
        if (fieldCount == starts.length) {
            starts = Arrays.copyOf(starts, fieldCount * 2);
            ends = Arrays.copyOf(ends, fieldCount * 2);
            special = Arrays.copyOf(special, fieldCount * 2);
        }
        starts[fieldCount] = recordLength;
        special[fieldCount] = false;
        fieldCount++;
    }

    private void endField() {
        ends[fieldCount - 1] = recordLength;
    }

    private void append(char c) {
        if (recordLength == record.length) {
            record = Arrays.copyOf(record, record.length * 2);
        }
        record[recordLength++] = c;
    }

    private void append(char[] chars, int offset, int count) {
        if (recordLength + count > record.length) {
            record = Arrays.copyOf(record, Math.max(record.length * 2, recordLength + count));
        }
        System.arraycopy(chars, offset, record, recordLength, count);
        recordLength += count;
    }

    /** Field {@code i} of the current record, as a view that is only valid until the next record is read. */
    private Cell cell(int i) {
        if (cells.length < fieldCount) {
            Cell[] grown = Arrays.copyOf(cells, fieldCount);
            for (int j = cells.length; j < grown.length; j++) {
                grown[j] = new Cell();
            }
            cells = grown;
        }
        Cell cell = cells[i];
        cell.set(record, starts[i], ends[i]);
        return cell;
    }

    /** @param line the record's first line, or 0 for the header */
    private void writeRecord(Utf8Out out, Column[] columns, long line, String terminator) throws IOException {
        boolean first = true;
        for (int i = 0; i < columns.length; i++) {
            Column column = columns[i];
            if (column.drop) {
                continue;
            }
            if (!first) {
                out.write(delimiter);
            }
            first = false;
            Cell cell = cell(i);
            if (line > 0 && column.pseudonymize) {
                // Hex digits: never quoted, never a formula.
                out.write(pseudonyms.pseudonym(cell));
                continue;
            }
            CharSequence value = cell;
            if (line > 0 && guard != null) {
                value = guard.guard(cell, () -> "file line " + line + " column " + column.name, true);
            }
            if (instructions != null) {
                instructions.check(value, line > 0 ? line : 1, i + 1);
            }
            writeCell(out, value, value == cell ? special[i] : true);
        }
        out.write(terminator.isEmpty() ? "\n" : terminator);
    }

    /** @param mayNeedQuotes false when the value holds no delimiter, quote or line break, as parsing showed */
    private void writeCell(Utf8Out out, CharSequence value, boolean mayNeedQuotes) throws IOException {
        boolean defuse = rules.neutralizeFormulas() && Formulas.looksLikeFormula(value);
        boolean quote = mayNeedQuotes && needsQuotes(value);
        if (!quote && !defuse) {
            if (value instanceof Cell cell) {
                out.write(cell.chars, cell.start, cell.length());
            } else {
                out.write(value);
            }
            return;
        }
        if (quote) {
            out.write('"');
        }
        if (defuse) {
            out.write('\'');
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quote && c == '"') {
                out.write('"');
            }
            out.write(c);
        }
        if (quote) {
            out.write('"');
        }
    }

    private boolean needsQuotes(CharSequence value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == delimiter || c == '"' || c == '\n' || c == '\r') {
                return true;
            }
        }
        return false;
    }

    private int peek() throws IOException {
        if (position == limit && !fill()) {
            return EOF;
        }
        return buffer[position];
    }

    private boolean fill() throws IOException {
        int read;
        try {
            read = source.read(buffer);
        } catch (Utf8Chars.InvalidUtf8Exception e) {
            throw invalid(line, "the file is not valid UTF-8");
        }
        if (read < 0) {
            return false;
        }
        position = 0;
        limit = read;
        return true;
    }

    private static GatewayException invalid(long line, String problem) {
        return new GatewayException(ErrorCode.INVALID_FILE, "Line " + line + ": " + problem + ". Fix the file and upload it again.");
    }

    /** A header column and what the rules do to it. */
    private record Column(String name, boolean drop, boolean pseudonymize) {
    }

    /** A field of the current record: a window on the record buffer, reused from record to record. */
    private static final class Cell implements CharSequence {
        private char[] chars;
        private int start;
        private int end;

        void set(char[] chars, int start, int end) {
            this.chars = chars;
            this.start = start;
            this.end = end;
        }

        @Override
        public int length() {
            return end - start;
        }

        @Override
        public char charAt(int index) {
            return chars[start + index];
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return new String(chars, start + from, to - from);
        }

        @Override
        public String toString() {
            return new String(chars, start, end - start);
        }
    }
}
