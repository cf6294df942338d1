package com.sandboxgateway.simulator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of one stored file: in memory while it is small and the simulator holds little in memory,
 * else in a temporary file, so a newcomer can upload a large data set without filling the heap.
 */
final class Blob {

    /** Larger files go to disk. */
    static final int IN_MEMORY_LIMIT = 1024 * 1024;
    /** Beyond this many bytes held in memory in all, every new file goes to disk. */
    static final long MEMORY_BUDGET = 64L * 1024 * 1024;

    private final byte[] bytes;
    private final Path file;
    private final long size;
    private final AtomicLong inMemory;

    private Blob(byte[] bytes, Path file, long size, AtomicLong inMemory) {
        this.bytes = bytes;
        this.file = file;
        this.size = size;
        this.inMemory = inMemory;
    }

    /** Bytes the simulator made itself (a chart, a copy); always small. */
    static Blob of(byte[] bytes, AtomicLong inMemory) {
        inMemory.addAndGet(bytes.length);
        return new Blob(bytes, null, bytes.length, inMemory);
    }

    /**
     * Reads {@code in} to its end.
     *
     * @param inMemory the bytes all blobs hold in memory, updated here
     * @param spillDir where large files are written
     */
    static Blob read(InputStream in, AtomicLong inMemory, Path spillDir) throws IOException {
        byte[] head = in.readNBytes(IN_MEMORY_LIMIT + 1);
        if (head.length <= IN_MEMORY_LIMIT && inMemory.get() + head.length <= MEMORY_BUDGET) {
            return of(head, inMemory);
        }
        Path file = Files.createTempFile(spillDir, "upload-", ".bin");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(head);
            long size = head.length + in.transferTo(out);
            return new Blob(null, file, size, inMemory);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    long size() {
        return size;
    }

    InputStream open() {
        if (bytes != null) {
            return new ByteArrayInputStream(bytes);
        }
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first bytes, for the pretend code that reads a file's header. */
    byte[] head(int count) {
        try (InputStream in = open()) {
            return in.readNBytes(count);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void delete() {
        if (bytes != null) {
            inMemory.addAndGet(-bytes.length);
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A leftover temporary file; the simulator's directory is removed on close.
        }
    }
}
