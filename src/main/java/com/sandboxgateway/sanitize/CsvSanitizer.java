package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
 * <p>Made for tens of millions of cells, it works on the UTF-8 bytes and never decodes a file into
 * characters: a record's fields stay where they were read in the input buffer (found eight bytes at a
 * time), a multi-byte sequence is checked where it stands (as strictly as the JDK's decoder), a kept
 * cell is written back as the bytes it came as, and a pseudonym is computed from them. Whether a cell
 * needs quotes is known from parsing (only a quoted cell or one holding a quote can). Only a cell
 * holding non-ASCII text becomes a {@code String}, for the scans.
 */
final class CsvSanitizer {

    private static final int EOF = -1;
    /** Field flags: quoted or holding a quote (may need quotes on output); holding a multi-byte character. */
    private static final byte QUOTES = 1;
    private static final byte NON_ASCII = 2;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES_EVERYWHERE = '"' * ONES;
    private static final long LINE_FEEDS = '\n' * ONES;
    private static final long CARRIAGE_RETURNS = '\r' * ONES;

    private final byte delimiter;
    /** The delimiter in every byte of a long. */
    private final long delimiters;
    private final SanitizationRules rules;
    private final Pseudonymizer.Session pseudonyms;
    private final String format;

    private InputStream source;
    /** The input; the current record's fields are read and kept in it, {@link #recordStart} on. */
    private byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private int recordStart;
    /** Where the current field's next kept byte goes: {@link #position}, or before it once a quote was left out. */
    private int content;
    private long line = 1;

    /** The current record's fields: bounds in {@link #buffer} and {@link #QUOTES}/{@link #NON_ASCII} flags. */
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private byte[] flags = new byte[16];
    private int fieldCount;
    private final AsciiCell ascii = new AsciiCell();
    private final byte[] pseudonym = new byte[Pseudonymizer.LENGTH];

    private final TextGuard guard;
    private final InstructionCheck instructions;

    /**
     * @param guard scans the cells no column rule rewrites for credentials and personal data; null: none
     * @param instructions checks the cells that go upstream as text (header included) for instructions
     *        aimed at a model; null: none
     */
    CsvSanitizer(char delimiter, SanitizationRules rules, Pseudonymizer.Session pseudonyms, TextGuard guard,
                 InstructionCheck instructions) {
        if (delimiter >= 0x80) {
            throw new IllegalArgumentException("the delimiter must be ASCII");
        }
        this.delimiter = (byte) delimiter;
        this.delimiters = delimiter * ONES;
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.guard = guard;
        this.instructions = instructions;
        this.format = delimiter == '\t' ? "tsv" : "csv";
    }

    SanitizationReport sanitize(InputStream in, OutputStream outStream) throws IOException {
        source = in;
        Utf8Out out = new Utf8Out(outStream);
        if (startsWithBom()) {
            position += 3;
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

    private boolean startsWithBom() throws IOException {
        while (limit < 3 && fill()) {
            // a stream may hand out fewer than three bytes at first
        }
        return limit >= 3 && buffer[0] == (byte) 0xef && buffer[1] == (byte) 0xbb && buffer[2] == (byte) 0xbf;
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

    /**
     * Reads one record; returns its line terminator ("" at the end), or null at the end of input. Its
     * fields stay where they are in the buffer; only a quote inside a field (escaped, or a closing one
     * followed by more text) moves the rest of that field down over it.
     */
    private String readRecord() throws IOException {
        recordStart = position;
        fieldCount = 0;
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
                return fieldCount == 1 && content == starts[0] && atFieldStart ? null : "";
            }
            int run = plainRun(position, limit, quoted);
            if (run > position) {
                keep(run - position);
                atFieldStart &= quoted;
                continue;
            }
            byte c = buffer[position];
            if (c < 0) {
                keep(sequenceLength());
                flags[fieldCount - 1] |= NON_ASCII;
                atFieldStart &= quoted;
                continue;
            }
            position++;
            if (quoted) {
                if (c == '"') {
                    if (peek() == '"') {
                        position++;
                        keep((byte) '"');
                    } else {
                        quoted = false;
                    }
                } else {
                    if (c == '\n' || c == '\r' && peek() != '\n') {
                        line++;
                    }
                    keep(c);
                }
            } else if (c == '"') {
                flags[fieldCount - 1] |= QUOTES;
                if (atFieldStart) {
                    quoted = true;
                    quoteLine = line;
                    starts[fieldCount - 1] = content = position; // nothing kept yet: the field starts after the quote
                } else {
                    keep(c);
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

    /**
     * Where the run of plain ASCII bytes from {@code from} ends: at a quote, a line break, a delimiter
     * outside quotes or the lead byte of a multi-byte character (negative as a Java byte), else at
     * {@code to}. Looks at eight bytes at a time.
     */
    private int plainRun(int from, int to, boolean quoted) {
        byte[] bytes = buffer;
        long delimiters = quoted ? QUOTES_EVERYWHERE : this.delimiters;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            long stops = word & HIGH_BITS | matches(word, QUOTES_EVERYWHERE) | matches(word, LINE_FEEDS)
                    | matches(word, CARRIAGE_RETURNS) | matches(word, delimiters);
            if (stops != 0) {
                return i + (Long.numberOfTrailingZeros(stops) >>> 3);
            }
        }
        for (; i < to; i++) {
            byte b = bytes[i];
            if (b < 0 || b == '"' || b == '\n' || b == '\r' || !quoted && b == delimiter) {
                return i;
            }
        }
        return to;
    }

    /**
     * The high bit of each byte of {@code word} equal to that byte of {@code pattern}; a byte above a
     * match may be flagged too, so only the lowest flag is exact, the one {@link #plainRun} uses.
     */
    private static long matches(long word, long pattern) {
        long x = word ^ pattern;
        return (x - ONES) & ~x & HIGH_BITS;
    }

    /** Keeps the next {@code count} bytes as the current field's. */
    private void keep(int count) {
        if (content != position) {
            System.arraycopy(buffer, position, buffer, content, count);
        }
        content += count;
        position += count;
    }

    /** Keeps {@code b}, read already, as the current field's next byte. */
    private void keep(byte b) {
        buffer[content++] = b;
    }

    /**
     * The length of the valid UTF-8 sequence at {@link #position}, whose lead byte is not ASCII; refuses
     * what the JDK's strict decoder refuses: stray continuation bytes, overlong forms, surrogates, code
     * points above U+10FFFF and sequences cut short.
     */
    private int sequenceLength() throws IOException {
        int lead = buffer[position] & 0xff;
        int length;
        int secondMin = 0x80;
        int secondMax = 0xbf;
        if (lead >= 0xc2 && lead <= 0xdf) {
            length = 2;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            length = 3;
            if (lead == 0xe0) {
                secondMin = 0xa0;
            } else if (lead == 0xed) {
                secondMax = 0x9f;
            }
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            length = 4;
            if (lead == 0xf0) {
                secondMin = 0x90;
            } else if (lead == 0xf4) {
                secondMax = 0x8f;
            }
        } else {
            throw notUtf8();
        }
        for (int i = 1; i < length; i++) {
            if (position + i == limit && !fill()) {
                throw notUtf8();
            }
            int b = buffer[position + i] & 0xff;
            if (i == 1 ? b < secondMin || b > secondMax : (b & 0xc0) != 0x80) {
                throw notUtf8();
            }
        }
        return length;
    }

    private void startField() {
        if (fieldCount == starts.length) {
            starts = Arrays.copyOf(starts, fieldCount * 2);
            ends = Arrays.copyOf(ends, fieldCount * 2);
            flags = Arrays.copyOf(flags, fieldCount * 2);
        }
        starts[fieldCount] = content = position;
        flags[fieldCount] = 0;
        fieldCount++;
    }

    private void endField() {
        ends[fieldCount - 1] = content;
    }

    /**
     * Field {@code i} of the current record as text: for ASCII a view that is only valid until the next
     * call, else a string decoded from the (already checked) bytes.
     */
    private CharSequence cell(int i) {
        if ((flags[i] & NON_ASCII) != 0) {
            return new String(buffer, starts[i], ends[i] - starts[i], StandardCharsets.UTF_8);
        }
        ascii.set(buffer, starts[i], ends[i]);
        return ascii;
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
                out.write((char) delimiter);
            }
            first = false;
            if (line > 0 && column.pseudonymize) {
                // Hex digits: never quoted, never a formula.
                out.writeUtf8(pseudonym, 0, pseudonyms.pseudonym(buffer, starts[i], ends[i] - starts[i], pseudonym));
                continue;
            }
            CharSequence cell = cell(i);
            CharSequence value = cell;
            if (line > 0 && guard != null) {
                value = guard.guard(cell, () -> "file line " + line + " column " + column.name, true);
            }
            if (instructions != null) {
                instructions.check(value, line > 0 ? line : 1, i + 1);
            }
            if (value == cell) {
                writeField(out, i, cell);
            } else {
                writeCell(out, value);
            }
        }
        out.write(terminator.isEmpty() ? "\n" : terminator);
    }

    /** Writes field {@code i} as it came, from its bytes, quoted only if it holds a delimiter, quote or line break. */
    private void writeField(Utf8Out out, int i, CharSequence text) throws IOException {
        int start = starts[i];
        int end = ends[i];
        boolean defuse = rules.neutralizeFormulas() && Formulas.looksLikeFormula(text);
        boolean quote = (flags[i] & QUOTES) != 0 && needsQuotes(buffer, start, end);
        if (!quote && !defuse) {
            out.writeUtf8(buffer, start, end - start);
            return;
        }
        if (quote) {
            out.write('"');
        }
        if (defuse) {
            out.write('\'');
        }
        int copied = start;
        for (int j = start; j < end; j++) {
            if (quote && buffer[j] == '"') {
                out.writeUtf8(buffer, copied, j + 1 - copied);
                copied = j;
            }
        }
        out.writeUtf8(buffer, copied, end - copied);
        if (quote) {
            out.write('"');
        }
    }

    /** Writes a value the guard rewrote. */
    private void writeCell(Utf8Out out, CharSequence value) throws IOException {
        boolean defuse = rules.neutralizeFormulas() && Formulas.looksLikeFormula(value);
        boolean quote = needsQuotes(value);
        if (quote) {
            out.write('"');
        }
        if (defuse) {
            out.write('\'');
        }
        if (!quote) {
            out.write(value, 0, value.length());
            return;
        }
        int copied = 0;
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) == '"') {
                out.write(value, copied, i + 1);
                copied = i;
            }
        }
        out.write(value, copied, value.length());
        out.write('"');
    }

    private boolean needsQuotes(byte[] bytes, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = bytes[i];
            if (b == delimiter || b == '"' || b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
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

    /** The next byte, not consumed; bad UTF-8 there is refused now, as where any other character is read. */
    private int peek() throws IOException {
        if (position == limit && !fill()) {
            return EOF;
        }
        if (buffer[position] < 0) {
            sequenceLength();
        }
        return buffer[position] & 0xff;
    }

    /**
     * Reads more; false at the end of the input. The current record is moved to the front of the buffer
     * first, or the buffer grows when the record fills it.
     */
    private boolean fill() throws IOException {
        if (recordStart > 0) {
            int shift = recordStart;
            System.arraycopy(buffer, shift, buffer, 0, limit - shift);
            limit -= shift;
            position -= shift;
            content -= shift;
            recordStart = 0;
            for (int i = 0; i < fieldCount; i++) {
                starts[i] -= shift;
                ends[i] -= shift;
            }
        } else if (limit == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int read = source.read(buffer, limit, buffer.length - limit);
        if (read < 0) {
            return false;
        }
        limit += read;
        return true;
    }

    private GatewayException notUtf8() {
        return invalid(line, "the file is not valid UTF-8");
    }

    private static GatewayException invalid(long line, String problem) {
        return new GatewayException(ErrorCode.INVALID_FILE, "Line " + line + ": " + problem + ". Fix the file and upload it again.");
    }

    /** A header column and what the rules do to it. */
    private record Column(String name, boolean drop, boolean pseudonymize) {
    }

    /** An ASCII field of the current record: a window on the buffer, reused from cell to cell. */
    private static final class AsciiCell implements CharSequence {
        private byte[] bytes;
        private int start;
        private int end;

        void set(byte[] bytes, int start, int end) {
            this.bytes = bytes;
            this.start = start;
            this.end = end;
        }

        @Override
        public int length() {
            return end - start;
        }

        @Override
        public char charAt(int index) {
            return (char) bytes[start + index];
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return new String(bytes, start + from, to - from, StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
        }
    }
}
