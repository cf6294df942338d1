package com.sandboxgateway.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An audit record as JSON, every field in a fixed order with nulls explicit. The chain hashes this
 * form and the spool stores it, so a spooled record replays into exactly the record that was made.
 */
final class AuditRecordJson {

    private final JsonMapper json;

    AuditRecordJson(JsonMapper json) {
        this.json = json;
    }

    ObjectNode write(AuditRecord r) {
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
        // Only when there are flags: records made before flags existed keep the form they were hashed in.
        if (!r.flags().isEmpty()) {
            r.flags().forEach(node.putArray("flags")::add);
        }
        // Likewise only when traced: records made without tracing keep their form.
        if (r.traceId() != null) {
            node.put("trace_id", r.traceId());
        }
        return node;
    }

    static AuditRecord read(JsonNode n) {
        return new AuditRecord(text(n, "record_id"), AuditRecord.Kind.valueOf(text(n, "kind")), text(n, "call_id"),
                text(n, "request_id"), text(n, "upstream_request_id"), text(n, "user"), text(n, "team"), text(n, "session"),
                text(n, "response_id"), text(n, "container_id"), text(n, "model"), text(n, "status"), text(n, "code"),
                text(n, "code_sha256"), text(n, "outputs"), n.path("outputs_truncated").asBoolean(),
                text(n, "details"), Instant.parse(text(n, "created_at")), flags(n.path("flags")), text(n, "trace_id"));
    }

    private static List<String> flags(JsonNode array) {
        List<String> flags = new ArrayList<>();
        array.forEach(flag -> flags.add(flag.asString()));
        return flags;
    }

    String toString(ObjectNode node) {
        return json.writeValueAsString(node);
    }

    /** The node's JSON in UTF-8: the bytes of {@link #toString}, without the string between. */
    byte[] toBytes(ObjectNode node) {
        return json.writeValueAsBytes(node);
    }

    JsonNode parse(String line) {
        return json.readTree(line);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
