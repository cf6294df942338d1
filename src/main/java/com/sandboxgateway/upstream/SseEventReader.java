package com.sandboxgateway.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits a {@code text/event-stream} body into {@link SseEvent}s without waiting for more than the
 * event at hand: events may arrive split across reads, use any of the three line endings, carry
 * several {@code data:} lines or comments.
 *
 * <p>Each event's bytes gather in one buffer that the reader keeps from event to event; its fields are
 * read where they lie in it, so an event costs its raw copy and its decoded {@code data}, not a copy per line.
 */
public final class SseEventReader {

    private static final byte[] EVENT = "event:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);

    private final InputStream in;
    private final int maxEventBytes;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private boolean afterCarriageReturn;
    /** The bytes of the event being read, from its first byte on. */
    private byte[] raw = new byte[1024];
    private int size;

    public SseEventReader(InputStream in, int maxEventBytes) {
        this.in = in;
        this.maxEventBytes = maxEventBytes;
    }

    /** The next event, or {@code null} at the end of the stream. */
    public SseEvent next() throws IOException {
        size = 0;
        int lineStart = 0;
        String event = null;
        Data data = new Data();
        boolean hasFields = false;
        int b;
        while ((b = read()) != -1) {
            add(b);
            if (size > maxEventBytes) {
                throw new IOException("server-sent event larger than " + maxEventBytes + " bytes");
            }
            if (afterCarriageReturn && b == '\n') {
                afterCarriageReturn = false;
                lineStart = size;
                continue;
            }
            afterCarriageReturn = b == '\r';
            if (b != '\n' && b != '\r') {
                continue;
            }
            int lineEnd = size - 1;
            if (lineEnd > lineStart) {
                hasFields = true;
                if (startsWith(lineStart, lineEnd, EVENT)) {
                    event = value(lineStart + EVENT.length, lineEnd);
                } else if (startsWith(lineStart, lineEnd, DATA)) {
                    data.add(value(lineStart + DATA.length, lineEnd));
                } else if (lineEnd - lineStart == DATA.length - 1 && Arrays.equals(raw, lineStart, lineEnd, DATA, 0, lineEnd - lineStart)) {
                    // "data" alone: an empty data line.
                    data.add("");
                }
            } else if (hasFields) {
                return new SseEvent(Arrays.copyOf(raw, size), event, data.text(), true);
            }
            lineStart = size;
        }
        if (size == 0) {
            return null;
        }
        if (size > lineStart && startsWith(lineStart, size, DATA)) {
            data.add(value(lineStart + DATA.length, size));
        }
        return new SseEvent(Arrays.copyOf(raw, size), event, data.text(), false);
    }

    /**
     * Whether the next event lies whole in what was read from the stream already, so {@link #next} returns it
     * without waiting for more: the bytes are scanned for its end as {@code next} reads them (a line with bytes,
     * then an empty line), nothing is consumed.
     */
    public boolean hasBufferedEvent() {
        boolean carriageReturn = afterCarriageReturn;
        boolean lineHasBytes = false;
        boolean hasFields = false;
        for (int i = position; i < limit; i++) {
            byte b = buffer[i];
            if (carriageReturn && b == '\n') {
                carriageReturn = false;
                continue;
            }
            carriageReturn = b == '\r';
            if (b != '\n' && b != '\r') {
                lineHasBytes = true;
            } else if (lineHasBytes) {
                hasFields = true;
                lineHasBytes = false;
            } else if (hasFields) {
                return true;
            }
        }
        return false;
    }

    /** Whether the line {@code [from, to)} of the event starts with {@code prefix}. */
    private boolean startsWith(int from, int to, byte[] prefix) {
        return to - from >= prefix.length && Arrays.equals(raw, from, from + prefix.length, prefix, 0, prefix.length);
    }

    /** A field's value: the rest of its line, less one space after the colon. */
    private String value(int from, int to) {
        int start = from < to && raw[from] == ' ' ? from + 1 : from;
        return new String(raw, start, to - start, StandardCharsets.UTF_8);
    }

    private void add(int b) {
        if (size == raw.length) {
            raw = Arrays.copyOf(raw, size * 2);
        }
        raw[size++] = (byte) b;
    }

    private int read() throws IOException {
        if (position == limit) {
            limit = in.read(buffer);
            position = 0;
            if (limit <= 0) {
                limit = 0;
                return -1;
            }
        }
        return buffer[position++] & 0xff;
    }

    /** An event's {@code data:} lines, joined by newlines; one line (the usual case) is kept as it was decoded. */
    private static final class Data {
        private String first;
        private StringBuilder joined;

        void add(String line) {
            if (first == null) {
                first = line;
            } else {
                if (joined == null) {
                    joined = new StringBuilder(first);
                }
                joined.append('\n').append(line);
            }
        }

        String text() {
            return joined != null ? joined.toString() : first;
        }
    }
}
