package com.sandboxgateway.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits a {@code text/event-stream} body into {@link SseEvent}s without waiting for more than the
 * event at hand: events may arrive split across reads, use any of the three line endings, carry
 * several {@code data:} lines or comments.
 */
public final class SseEventReader {

    private final InputStream in;
    private final int maxEventBytes;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private boolean afterCarriageReturn;

    public SseEventReader(InputStream in, int maxEventBytes) {
        this.in = in;
        this.maxEventBytes = maxEventBytes;
    }

    /** The next event, or {@code null} at the end of the stream. */
    public SseEvent next() throws IOException {
        Bytes raw = new Bytes();
        Bytes line = new Bytes();
        String event = null;
        StringBuilder data = null;
        boolean hasFields = false;
        int b;
        while ((b = read()) != -1) {
            raw.add(b);
            if (raw.size > maxEventBytes) {
                throw new IOException("server-sent event larger than " + maxEventBytes + " bytes");
            }
            if (afterCarriageReturn && b == '\n') {
                afterCarriageReturn = false;
                continue;
            }
            afterCarriageReturn = b == '\r';
            if (b != '\n' && b != '\r') {
                line.add(b);
            } else if (line.size > 0) {
                String text = line.text();
                line.size = 0;
                hasFields = true;
                if (text.startsWith("event:")) {
                    event = value(text, 6);
                } else if (text.startsWith("data:")) {
                    data = data == null ? new StringBuilder(value(text, 5)) : data.append('\n').append(value(text, 5));
                } else if (text.equals("data")) {
                    data = data == null ? new StringBuilder() : data.append('\n');
                }
            } else if (hasFields) {
                return new SseEvent(raw.toArray(), event, data == null ? null : data.toString(), true);
            }
        }
        if (raw.size == 0) {
            return null;
        }
        if (line.size > 0 && line.text().startsWith("data:")) {
            String tail = value(line.text(), 5);
            data = data == null ? new StringBuilder(tail) : data.append('\n').append(tail);
        }
        return new SseEvent(raw.toArray(), event, data == null ? null : data.toString(), false);
    }

    private static String value(String line, int fieldLength) {
        int start = line.length() > fieldLength && line.charAt(fieldLength) == ' ' ? fieldLength + 1 : fieldLength;
        return line.substring(start);
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

    /** A growable byte array without the locking of {@code ByteArrayOutputStream}. */
    private static final class Bytes {
        private byte[] bytes = new byte[256];
        private int size;

        void add(int b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
            }
            bytes[size++] = (byte) b;
        }

        String text() {
            return new String(bytes, 0, size, StandardCharsets.UTF_8);
        }

        byte[] toArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
