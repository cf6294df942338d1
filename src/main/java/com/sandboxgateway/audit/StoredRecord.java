package com.sandboxgateway.audit;

/** An audit record as stored: its place in the chain and the hashes that link it. */
public record StoredRecord(long seq, AuditRecord record, String prevHash, String hash) {
}
