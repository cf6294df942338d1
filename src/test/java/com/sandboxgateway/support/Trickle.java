package com.sandboxgateway.support;

import java.io.InputStream;

/** Hands out at most {@code chunk} bytes per read, as a slow network would, to test parsers at every split. */
public final class Trickle extends InputStream {

    private final byte[] bytes;
    private final int chunk;
    private int position;

    public Trickle(byte[] bytes, int chunk) {
        this.bytes = bytes;
        this.chunk = chunk;
    }

    @Override
    public int read() {
        return position < bytes.length ? bytes[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
        if (position >= bytes.length) {
            return -1;
        }
        int count = Math.min(Math.min(length, chunk), bytes.length - position);
        System.arraycopy(bytes, position, buffer, offset, count);
        position += count;
        return count;
    }
}
