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

    private final AuditRecordJson records;

    AuditChain(JsonMapper json) {
        this.records = new AuditRecordJson(json);
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

    /** The record's JSON form behind its sequence number: the same bytes on every replica and database. */
    String canonical(long seq, AuditRecord record) {
        ObjectNode node = records.write(record);
        ObjectNode canonical = node.objectNode();
        canonical.put("seq", seq);
        canonical.setAll(node);
        return records.toString(canonical);
    }
}
