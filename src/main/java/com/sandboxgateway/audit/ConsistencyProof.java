package com.sandboxgateway.audit;

import java.util.List;

/** RFC 9162 proof that the tree of {@code to} leaves extends the tree of its first {@code from}. Hashes in base64. */
public record ConsistencyProof(long from, long to, String fromRoot, String toRoot, List<String> proof) {
}
