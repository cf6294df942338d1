package com.sandboxgateway.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.audit.tlog.MerkleHash;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hashes over audit records. The chain: each record's hash covers its canonical serialization and
 * the previous record's hash, so changing, removing or reordering any record breaks every later link.
 * The Merkle tree: the same serialization is the record's leaf ({@code SHA-256(0x00 || canonical)}).
 */
final class AuditChain {

    static final String GENESIS = "0".repeat(64);

    private final AuditRecordJson records;

    AuditChain(JsonMapper json) {
        this.records = new AuditRecordJson(json);
    }

    /** The record's chain hash after {@code previousHash}, and its leaf hash, from one serialization. */
    Hashes hashes(String previousHash, long seq, AuditRecord record) {
        byte[] canonical = canonical(seq, record);
        MessageDigest digest = Sha256.digest();
        digest.update(previousHash.getBytes(StandardCharsets.US_ASCII));
        return new Hashes(HexFormat.of().formatHex(digest.digest(canonical)), MerkleHash.leaf(canonical));
    }

    /** The record's JSON form behind its sequence number, in UTF-8: the same bytes on every replica and database. */
    byte[] canonical(long seq, AuditRecord record) {
        ObjectNode node = records.write(record);
        ObjectNode canonical = node.objectNode();
        canonical.put("seq", seq);
        canonical.setAll(node);
        return records.toBytes(canonical);
    }

    /** @param chainHash hex, linking to the record before; @param leafHash the record's leaf in the Merkle tree */
    record Hashes(String chainHash, byte[] leafHash) {

        String leafHex() {
            return HexFormat.of().formatHex(leafHash);
        }
    }
}
