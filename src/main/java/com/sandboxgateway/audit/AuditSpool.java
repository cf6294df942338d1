package com.sandboxgateway.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/**
 * Where audit records wait while the database is unreachable: one JSON line per record, appended
 * and forced to disk before the write returns, so a record acknowledged to the request survives a
 * crash of the gateway. Not thread-safe; {@link SpoolingAuditLog} serializes access.
 */
final class AuditSpool {

    private final Path file;
    private final AuditRecordJson records;

    AuditSpool(Path directory, JsonMapper json) throws IOException {
        Files.createDirectories(directory);
        this.file = directory.resolve("audit-spool.jsonl");
        this.records = new AuditRecordJson(json);
    }

    /** Appends and fsyncs; throws when the record could not be made durable. */
    void append(AuditRecord record) throws IOException {
        byte[] line = (records.toString(records.write(record)) + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    /** The spooled records in the order they were written. */
    List<AuditRecord> read() throws IOException {
        List<AuditRecord> spooled = new ArrayList<>();
        if (!Files.exists(file)) {
            return spooled;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                spooled.add(AuditRecordJson.read(records.parse(line)));
            }
        }
        return spooled;
    }

    /** Records waiting; zero when the spool is empty. */
    long depth() {
        try {
            return Files.exists(file) ? Files.lines(file).filter(line -> !line.isBlank()).count() : 0;
        } catch (IOException e) {
            return -1;
        }
    }

    boolean isEmpty() {
        try {
            return !Files.exists(file) || Files.size(file) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Empties the spool once every record in it is stored. */
    void clear() throws IOException {
        Files.deleteIfExists(file);
    }
}
