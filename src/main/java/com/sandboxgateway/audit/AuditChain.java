package com.sandboxgateway.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hash chain over audit records: each record's hash covers its canonical serialization and the
 * previous record's hash, so changing, removing or reordering any record breaks every later link.
 */
final class AuditChain {

    static final String GENESIS = "0".repeat(64);

    private final JsonMapper json;

    AuditChain(JsonMapper json) {
        this.json = json;
    }

    String hash(String previousHash, long seq, AuditRecord record) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(previousHash.getBytes(StandardCharsets.US_ASCII));
            digest.update(canonical(seq, record).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** Every field in a fixed order, nulls explicit, the time in ISO-8601: the same bytes on every replica and database. */
    String canonical(long seq, AuditRecord record) {
        ObjectNode node = json.createObjectNode();
        node.put("seq", seq);
        node.put("record_id", record.recordId());
        node.put("kind", record.kind().name());
        node.put("call_id", record.callId());
        node.put("request_id", record.requestId());
        node.put("upstream_request_id", record.upstreamRequestId());
        node.put("user", record.user());
        node.put("team", record.team());
        node.put("session", record.session());
        node.put("response_id", record.responseId());
        node.put("container_id", record.containerId());
        node.put("model", record.model());
        node.put("status", record.status());
        node.put("code", record.code());
        node.put("code_sha256", record.codeSha256());
        node.put("outputs", record.outputs());
        node.put("outputs_truncated", record.outputsTruncated());
        node.put("details", record.details());
        node.put("created_at", record.createdAt().toString());
        return json.writeValueAsString(node);
    }
}
