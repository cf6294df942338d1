package com.sandboxgateway.sanitize;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
    private final List<StringBuilder> fields = new ArrayList<>();
    private int fieldCount;
    private char[] scratch = new char[256];

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
        Writer out = new BufferedWriter(new OutputStreamWriter(outStream, StandardCharsets.UTF_8), 64 * 1024);
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
            if (fieldCount == 1 && fields.getFirst().isEmpty()) {
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
            String name = ColumnNames.normalize(fields.get(i).toString());
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

    /** Reads one record into {@link #fields}; returns its line terminator ("" at the end), or null at the end of input. */
    private String readRecord() throws IOException {
        fieldCount = 0;
        StringBuilder field = nextField();
        long quoteLine = 0;
        boolean quoted = false;
        boolean atFieldStart = true;
        while (true) {
            int c = next();
            if (c == EOF) {
                if (quoted) {
                    throw invalid(quoteLine, "a quoted field opened here is never closed");
                }
                return fieldCount == 1 && field.isEmpty() && atFieldStart ? null : "";
            }
            if (quoted) {
                if (c == '"') {
                    if (peek() == '"') {
                        position++;
                        field.append('"');
                    } else {
                        quoted = false;
                    }
                } else {
                    if (c == '\n' || c == '\r' && peek() != '\n') {
                        line++;
                    }
                    field.append((char) c);
                }
            } else if (c == '"' && atFieldStart) {
                quoted = true;
                atFieldStart = false;
                quoteLine = line;
            } else if (c == delimiter) {
                field = nextField();
                atFieldStart = true;
            } else if (c == '\n') {
                line++;
                return "\n";
            } else if (c == '\r') {
                line++;
                if (peek() == '\n') {
                    position++;
                    return "\r\n";
                }
                return "\r";
            } else {
                atFieldStart = false;
                field.append((char) c);
            }
        }
    }

    private StringBuilder nextField() {
        if (fieldCount == fields.size()) {
            fields.add(new StringBuilder(32));
        }
        StringBuilder field = fields.get(fieldCount++);
        field.setLength(0);
        return field;
    }

    /** @param line the record's first line, or 0 for the header */
    private void writeRecord(Writer out, Column[] columns, long line, String terminator) throws IOException {
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
            CharSequence value = fields.get(i);
            if (line > 0 && column.pseudonymize) {
                value = pseudonyms.pseudonym(value);
            } else if (line > 0 && guard != null) {
                value = guard.guard(value, () -> "file line " + line + " column " + column.name, true);
            }
            if (instructions != null && !(line > 0 && column.pseudonymize)) {
                instructions.check(value, line > 0 ? line : 1, i + 1);
            }
            writeCell(out, value);
        }
        out.write(terminator.isEmpty() ? "\n" : terminator);
    }

    private void writeCell(Writer out, CharSequence value) throws IOException {
        boolean defuse = rules.neutralizeFormulas() && Formulas.looksLikeFormula(value);
        boolean quote = needsQuotes(value);
        int length = value.length();
        if (scratch.length < 2 * length + 3) {
            scratch = new char[2 * length + 3];
        }
        int n = 0;
        if (quote) {
            scratch[n++] = '"';
        }
        if (defuse) {
            scratch[n++] = '\'';
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (quote && c == '"') {
                scratch[n++] = '"';
            }
            scratch[n++] = c;
        }
        if (quote) {
            scratch[n++] = '"';
        }
        out.write(scratch, 0, n);
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

    private int next() throws IOException {
        if (position == limit && !fill()) {
            return EOF;
        }
        return buffer[position++];
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
}
