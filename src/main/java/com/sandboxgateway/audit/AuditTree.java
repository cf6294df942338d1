package com.sandboxgateway.audit;

import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.MerkleProofs;
import com.sandboxgateway.audit.tlog.NodeSource;
import com.sandboxgateway.audit.tlog.TreeNodes;

/**
 * The audit records' Merkle tree as its store keeps it: the complete nodes appends created, the tree's size and where
 * it starts (leaf {@code i} is the record with seq {@code base + i + 1}), the proofs and tree heads read from them, and
 * the signed checkpoints.
 */
interface AuditTree {

    /** The signed-ready head of the tree as it is now: its size and root under {@code origin}. */
    Checkpoint head(String origin);

    /** Keeps a signed checkpoint; false when one of that tree size is kept already (another replica signed it). */
    boolean save(Checkpoint checkpoint, String note, Instant at);

    /** The signed note of the largest tree checkpointed, if any. */
    Optional<String> latestCheckpoint();

    /** The tree's size, and the seq of the record before its first leaf. */
    Span span();

    /** The nodes under these keys ({@link TreeNodes#key}); a key the tree lacks is missing from the answer. */
    Map<Long, byte[]> nodes(Set<Long> keys);

    /** The RFC 9162 proof that the record {@code seq} is in the tree of {@code size} leaves. */
    default InclusionProof inclusion(long seq, long size) {
        Span tree = span();
        tree.checkSize(size, "size");
        long leaf = seq - 1 - tree.base();
        if (leaf < 0 || leaf >= size) {
            throw new IllegalArgumentException("seq must be a record in the tree of " + size + " leaves: "
                    + (tree.base() + 1) + ".." + (tree.base() + size));
        }
        return withNodes(nodes -> new InclusionProof(seq, leaf, size, base64(nodes.node(0, leaf)),
                base64(MerkleProofs.root(size, nodes)), MerkleProofs.inclusion(leaf, size, nodes).stream().map(AuditTree::base64).toList()));
    }

    /** The RFC 9162 proof that the tree of {@code to} leaves extends the tree of {@code from}. */
    default ConsistencyProof consistency(long from, long to) {
        Span tree = span();
        tree.checkSize(from, "from");
        tree.checkSize(to, "to");
        if (from > to) {
            throw new IllegalArgumentException("from must not exceed to");
        }
        return withNodes(nodes -> new ConsistencyProof(from, to, base64(MerkleProofs.root(from, nodes)),
                base64(MerkleProofs.root(to, nodes)), MerkleProofs.consistency(from, to, nodes).stream().map(AuditTree::base64).toList()));
    }

    /**
     * Runs a proof computation twice: once to learn which nodes it reads, then on those nodes fetched at once, so a
     * proof costs one read of the store instead of one per node.
     */
    private <T> T withNodes(Function<NodeSource, T> proof) {
        Set<Long> keys = new LinkedHashSet<>();
        proof.apply((level, index) -> {
            keys.add(TreeNodes.key(level, index));
            return new byte[32];
        });
        Map<Long, byte[]> fetched = nodes(keys);
        return proof.apply((level, index) -> {
            byte[] hash = fetched.get(TreeNodes.key(level, index));
            if (hash == null) {
                throw new IllegalStateException("the audit tree lacks its node " + level + "/" + index);
            }
            return hash;
        });
    }

    private static String base64(byte[] hash) {
        return Base64.getEncoder().encodeToString(hash);
    }

    /** @param size the tree's leaves; @param base the seq of the record before its first leaf */
    record Span(long size, long base) {

        void checkSize(long value, String name) {
            if (value < 1 || value > size) {
                throw new IllegalArgumentException(name + " must be a tree size between 1 and " + size + " (the current one)");
            }
        }
    }
}
