package com.sandboxgateway.sanitize;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Passes a text file through unchanged while checking each of its lines for instructions aimed at a
 * model. A line longer than {@value #MAX_LINE} bytes is checked in pieces, so memory stays bounded.
 */
final class TextLinesChecked extends FilterOutputStream {

    private static final int MAX_LINE = 64 * 1024;

    private final InstructionCheck instructions;
    private final ByteArrayOutputStream current = new ByteArrayOutputStream();
    private long line = 1;

    TextLinesChecked(OutputStream out, InstructionCheck instructions) {
        super(out);
        this.instructions = instructions;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        if (b == '\n') {
            checkLine();
            line++;
        } else {
            current.write(b);
            if (current.size() >= MAX_LINE) {
                checkLine();
            }
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        int start = offset;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == '\n') {
                current.write(bytes, start, i - start);
                checkLine();
                line++;
                start = i + 1;
            } else if (current.size() + i - start >= MAX_LINE) {
                current.write(bytes, start, i - start);
                checkLine();
                start = i;
            }
        }
        current.write(bytes, start, offset + length - start);
    }

    /** Checks what is left after the last line break; call once the file is written. */
    void finish() {
        checkLine();
    }

    private void checkLine() {
        if (current.size() > 0) {
            instructions.check(current.toString(StandardCharsets.UTF_8), line, 0);
            current.reset();
        }
    }
}
