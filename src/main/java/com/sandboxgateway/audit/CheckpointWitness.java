package com.sandboxgateway.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Somewhere outside the database that keeps each signed checkpoint, so a later rewrite of the database
 * contradicts a checkpoint it cannot change.
 */
interface CheckpointWitness {

    /** Names the witness in logs and metrics (a path or a URL; never a credential). */
    String name();

    void publish(String note) throws IOException;

    /** Appends each note to a file (a blank line between notes) and forces it to disk before returning. */
    static CheckpointWitness file(Path file) {
        return new CheckpointWitness() {
            @Override
            public String name() {
                return "file " + file;
            }

            @Override
            public synchronized void publish(String note) throws IOException {
                if (file.getParent() != null) {
                    Files.createDirectories(file.getParent());
                }
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND)) {
                    ByteBuffer bytes = ByteBuffer.wrap((note + "\n").getBytes(StandardCharsets.UTF_8));
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                    channel.force(true);
                }
            }
        };
    }
}
