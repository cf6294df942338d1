package com.sandboxgateway.audit;

import java.util.List;

/**
 * RFC 9162 proof that a record is in the tree of {@code treeSize} leaves. Hashes in base64.
 *
 * @param leafIndex the record's leaf ({@code seq - 1} unless retention ran before the tree existed)
 * @param proof the audit path, nearest sibling first
 */
public record InclusionProof(long seq, long leafIndex, long treeSize, String leafHash, String rootHash, List<String> proof) {
}
