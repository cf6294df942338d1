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
 * crash of the gateway. A crash in the middle of an append leaves a last line without its newline: that
 * record was never acknowledged, and opening the spool cuts it off, so the next append starts a line of
 * its own. Not thread-safe; {@link SpoolingAuditLog} serializes access.
 */
final class AuditSpool {

    private final Path file;
    private final AuditRecordJson records;

    AuditSpool(Path directory, JsonMapper json) throws IOException {
        Files.createDirectories(directory);
        this.file = directory.resolve("audit-spool.jsonl");
        this.records = new AuditRecordJson(json);
        cutTornTail();
    }

    /** Truncates the file after its last newline: what follows is an append a crash cut short. */
    private void cutTornTail() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long end = channel.size();
            ByteBuffer one = ByteBuffer.allocate(1);
            while (end > 0) {
                one.clear();
                channel.read(one, end - 1);
                if (one.get(0) == '\n') {
                    break;
                }
                end--;
            }
            if (end < channel.size()) {
                channel.truncate(end);
                channel.force(true);
            }
        }
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
