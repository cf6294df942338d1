package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes strict UTF-8 as it streams. Invalid bytes are not replaced: the characters decoded before
 * them are handed out first, and only then does {@link #read} report the error, so the parser can
 * name the line where the bad bytes sit.
 */
final class Utf8Chars {

    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(64 * 1024);
    private boolean endOfInput;
    private boolean malformed;
    private boolean flushed;

    Utf8Chars(InputStream in) {
        this.in = in;
        bytes.flip();
    }

    /** Fills {@code target} with the next characters; -1 at the end; throws once bad bytes are reached. */
    int read(char[] target) throws IOException {
        if (malformed) {
            throw new InvalidUtf8Exception();
        }
        CharBuffer chars = CharBuffer.wrap(target);
        while (chars.position() == 0) {
            if (!bytes.hasRemaining() && endOfInput) {
                if (!flushed) {
                    flushed = true;
                    CoderResult result = decoder.decode(bytes, chars, true);
                    if (result.isError()) {
                        malformed = true;
                        break;
                    }
                    decoder.flush(chars);
                    continue;
                }
                return -1;
            }
            CoderResult result = decoder.decode(bytes, chars, endOfInput);
            if (result.isError()) {
                malformed = true;
                break;
            }
            if (result.isUnderflow() && !endOfInput) {
                bytes.compact();
                int read = in.read(bytes.array(), bytes.position(), bytes.remaining());
                if (read < 0) {
                    endOfInput = true;
                } else {
                    bytes.position(bytes.position() + read);
                }
                bytes.flip();
            }
        }
        if (chars.position() == 0 && malformed) {
            throw new InvalidUtf8Exception();
        }
        return chars.position();
    }

    /** Bytes that are not valid UTF-8. */
    static final class InvalidUtf8Exception extends IOException {
        InvalidUtf8Exception() {
            super("invalid UTF-8");
        }
    }
}
