package com.sandboxgateway.multipart;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a {@code multipart/form-data} body part by part as it arrives (RFC 7578, RFC 2046): each
 * part's content is a stream that ends at the next boundary, so a part of any size passes with a
 * fixed buffer.
 */
public final class MultipartReader {

    private static final int MAX_HEADER_BYTES = 16 * 1024;

    private final InputStream in;
    private final byte[] delimiter;
    private final byte[] buffer;
    private int position;
    private int limit;
    private boolean finished;
    private PartStream current;

    /**
     * @param boundary the {@code boundary} parameter of the request's {@code Content-Type}
     */
    public MultipartReader(InputStream in, String boundary) {
        this.in = in;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        this.buffer = new byte[Math.max(64 * 1024, delimiter.length * 4)];
        // The first boundary may open the body without a preceding line break: supply one.
        this.buffer[0] = '\r';
        this.buffer[1] = '\n';
        this.limit = 2;
    }

    /** The next part, or {@code null} after the closing boundary. Skips what is left of the previous one. */
    public Part next() throws IOException {
        if (current != null) {
            current.transferTo(java.io.OutputStream.nullOutputStream());
        } else {
            skipToFirstBoundary();
        }
        if (finished) {
            return null;
        }
        PartHeaders headers = PartHeaders.parse(readHeaders());
        current = new PartStream();
        return new Part(headers, current);
    }

    private void skipToFirstBoundary() throws IOException {
        PartStream preamble = new PartStream();
        preamble.transferTo(java.io.OutputStream.nullOutputStream());
    }

    private byte[] readHeaders() throws IOException {
        byte[] terminator = {'\r', '\n', '\r', '\n'};
        while (true) {
            if (limit - position >= 2 && buffer[position] == '\r' && buffer[position + 1] == '\n') {
                position += 2;
                return new byte[0];
            }
            int index = indexOf(terminator, position, limit);
            if (index >= 0) {
                byte[] headers = Arrays.copyOfRange(buffer, position, index);
                position = index + terminator.length;
                return headers;
            }
            if (limit - position > MAX_HEADER_BYTES) {
                throw new MalformedMultipartException("a part's headers exceed " + MAX_HEADER_BYTES + " bytes");
            }
            if (!fill()) {
                throw new MalformedMultipartException("the body ends inside a part's headers");
            }
        }
    }

    /** After a delimiter: {@code --} closes the body, else a line break (after optional padding) opens a part. */
    private void readDelimiterSuffix() throws IOException {
        while (limit - position < 2) {
            if (!fill()) {
                throw new MalformedMultipartException("the body ends without its closing boundary");
            }
        }
        if (buffer[position] == '-' && buffer[position + 1] == '-') {
            position += 2;
            finished = true;
            return;
        }
        while (true) {
            if (position == limit && !fill()) {
                throw new MalformedMultipartException("the body ends without its closing boundary");
            }
            byte b = buffer[position];
            if (b == ' ' || b == '\t') {
                position++;
            } else if (b == '\r') {
                while (limit - position < 2) {
                    if (!fill()) {
                        throw new MalformedMultipartException("the body ends without its closing boundary");
                    }
                }
                if (buffer[position + 1] != '\n') {
                    throw new MalformedMultipartException("a boundary line is not followed by a line break");
                }
                position += 2;
                return;
            } else {
                throw new MalformedMultipartException("a boundary line is not followed by a line break");
            }
        }
    }

    /** Moves unread bytes to the front and reads more; false at the end of the input. */
    private boolean fill() throws IOException {
        if (position > 0) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        if (limit == buffer.length) {
            throw new MalformedMultipartException("a part's headers exceed the buffer");
        }
        int read = in.read(buffer, limit, buffer.length - limit);
        if (read < 0) {
            return false;
        }
        limit += read;
        return true;
    }

    private int indexOf(byte[] pattern, int from, int to) {
        byte first = pattern[0];
        outer:
        for (int i = from; i <= to - pattern.length; i++) {
            if (buffer[i] != first) {
                continue;
            }
            for (int j = 1; j < pattern.length; j++) {
                if (buffer[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** One part: its headers and its content, which ends at the next boundary. */
    public record Part(PartHeaders headers, InputStream content) {
    }

    /** A part's content: the bytes up to the next delimiter. */
    private final class PartStream extends InputStream {
        private boolean exhausted;
        /** Where the content found so far ends in the buffer (reset when a fill moves the buffer's bytes). */
        private int contentEnd;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int read = read(one, 0, 1);
            return read < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] target, int offset, int length) throws IOException {
            if (exhausted) {
                return -1;
            }
            if (length == 0) {
                return 0;
            }
            while (true) {
                if (contentEnd > position) {
                    int count = Math.min(length, contentEnd - position);
                    System.arraycopy(buffer, position, target, offset, count);
                    position += count;
                    return count;
                }
                int found = indexOf(delimiter, position, limit);
                if (found == position) {
                    position += delimiter.length;
                    exhausted = true;
                    readDelimiterSuffix();
                    return -1;
                }
                // Bytes before a possible delimiter start are content for sure; remembered, so a reader
                // taking small chunks does not have the rest of the buffer searched again for each.
                contentEnd = found >= 0 ? found : Math.max(position, limit - delimiter.length + 1);
                if (contentEnd > position) {
                    continue;
                }
                if (!fill()) {
                    throw new MalformedMultipartException("the body ends without its closing boundary");
                }
                contentEnd = 0;
            }
        }
    }
}
