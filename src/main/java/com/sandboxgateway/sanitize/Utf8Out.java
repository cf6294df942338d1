package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes characters as UTF-8 into a buffer of its own, ASCII byte for byte, and bytes that already are
 * UTF-8 as they are: a sanitizer writes tens of millions of cells, and a {@code Writer} with its encoder
 * adds a copy and a check per call.
 */
final class Utf8Out {

    private final OutputStream out;
    private final byte[] buffer = new byte[64 * 1024];
    private int length;

    Utf8Out(OutputStream out) {
        this.out = out;
    }

    void write(char c) throws IOException {
        if (length + 4 > buffer.length) {
            drain();
        }
        if (c < 0x80) {
            buffer[length++] = (byte) c;
        } else {
            encode(c);
        }
    }

    void write(CharSequence text) throws IOException {
        write(text, 0, text.length());
    }

    /** Writes {@code text} from index {@code from} up to {@code to}. */
    void write(CharSequence text, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c >= 0x80 && Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                codePoint(Character.toCodePoint(c, text.charAt(++i)));
            } else {
                write(c);
            }
        }
    }

    /** Writes bytes that already are UTF-8 as they are. */
    void writeUtf8(byte[] utf8, int offset, int count) throws IOException {
        if (count > buffer.length - length) {
            drain();
            if (count > buffer.length) {
                out.write(utf8, offset, count);
                return;
            }
        }
        System.arraycopy(utf8, offset, buffer, length, count);
        length += count;
    }

    void write(char[] chars, int offset, int count) throws IOException {
        int end = offset + count;
        for (int i = offset; i < end; i++) {
            char c = chars[i];
            if (c < 0x80 && length < buffer.length) {
                buffer[length++] = (byte) c;
            } else if (c >= 0x80 && Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(chars[i + 1])) {
                codePoint(Character.toCodePoint(c, chars[++i]));
            } else {
                write(c);
            }
        }
    }

    void flush() throws IOException {
        drain();
        out.flush();
    }

    private void encode(char c) {
        if (c < 0x800) {
            buffer[length++] = (byte) (0xc0 | c >> 6);
            buffer[length++] = (byte) (0x80 | c & 0x3f);
        } else if (Character.isSurrogate(c)) {
            buffer[length++] = '?';
        } else {
            buffer[length++] = (byte) (0xe0 | c >> 12);
            buffer[length++] = (byte) (0x80 | c >> 6 & 0x3f);
            buffer[length++] = (byte) (0x80 | c & 0x3f);
        }
    }

    private void codePoint(int codePoint) throws IOException {
        if (length + 4 > buffer.length) {
            drain();
        }
        buffer[length++] = (byte) (0xf0 | codePoint >> 18);
        buffer[length++] = (byte) (0x80 | codePoint >> 12 & 0x3f);
        buffer[length++] = (byte) (0x80 | codePoint >> 6 & 0x3f);
        buffer[length++] = (byte) (0x80 | codePoint & 0x3f);
    }

    private void drain() throws IOException {
        out.write(buffer, 0, length);
        length = 0;
    }
}
