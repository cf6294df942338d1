package com.sandboxgateway.audit;

/**
 * An audit record as stored: its place in the chain, the hashes that link it, and its leaf hash
 * (base64) in the Merkle tree, which inclusion proofs and checkpoints are about.
 */
public record StoredRecord(long seq, AuditRecord record, String prevHash, String hash, String leafHash) {
}
