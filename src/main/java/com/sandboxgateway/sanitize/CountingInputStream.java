package com.sandboxgateway.sanitize;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A stream that reports every byte that passes through it, read or skipped, so a limit can refuse it on the spot. */
abstract class CountingInputStream extends FilterInputStream {

    CountingInputStream(InputStream in) {
        super(in);
    }

    /** Called after {@code bytes} more bytes passed; throws to refuse the stream. */
    protected abstract void counted(long bytes);

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int read = super.read(buffer, offset, length);
        if (read > 0) {
            counted(read);
        }
        return read;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        counted(skipped);
        return skipped;
    }
}
