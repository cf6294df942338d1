package com.sandboxgateway.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where audit records wait while the database is unreachable: one JSON line per record, appended
 * and forced to disk before the write returns, so a record acknowledged to the request survives a
 * crash of the gateway. Not thread-safe; {@link SpoolingAuditLog} serializes access.
 */
final class AuditSpool {

    private final Path file;
    private final JsonMapper json;

    AuditSpool(Path directory, JsonMapper json) throws IOException {
        Files.createDirectories(directory);
        this.file = directory.resolve("audit-spool.jsonl");
        this.json = json;
    }

    /** Appends and fsyncs; throws when the record could not be made durable. */
    void append(AuditRecord record) throws IOException {
        byte[] line = (json.writeValueAsString(toJson(record)) + "\n").getBytes(StandardCharsets.UTF_8);
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
        List<AuditRecord> records = new ArrayList<>();
        if (!Files.exists(file)) {
            return records;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                records.add(fromJson(json.readTree(line)));
            }
        }
        return records;
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

    private ObjectNode toJson(AuditRecord r) {
        ObjectNode node = json.createObjectNode();
        node.put("record_id", r.recordId());
        node.put("kind", r.kind().name());
        node.put("call_id", r.callId());
        node.put("request_id", r.requestId());
        node.put("upstream_request_id", r.upstreamRequestId());
        node.put("user", r.user());
        node.put("team", r.team());
        node.put("session", r.session());
        node.put("response_id", r.responseId());
        node.put("container_id", r.containerId());
        node.put("model", r.model());
        node.put("status", r.status());
        node.put("code", r.code());
        node.put("code_sha256", r.codeSha256());
        node.put("outputs", r.outputs());
        node.put("outputs_truncated", r.outputsTruncated());
        node.put("details", r.details());
        node.put("created_at", r.createdAt().toString());
        return node;
    }

    private static AuditRecord fromJson(JsonNode n) {
        return new AuditRecord(text(n, "record_id"), AuditRecord.Kind.valueOf(text(n, "kind")), text(n, "call_id"),
                text(n, "request_id"), text(n, "upstream_request_id"), text(n, "user"), text(n, "team"), text(n, "session"),
                text(n, "response_id"), text(n, "container_id"), text(n, "model"), text(n, "status"), text(n, "code"),
                text(n, "code_sha256"), text(n, "outputs"), n.path("outputs_truncated").asBoolean(),
                text(n, "details"), Instant.parse(text(n, "created_at")));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
