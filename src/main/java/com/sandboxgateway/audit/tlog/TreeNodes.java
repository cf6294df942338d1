package com.sandboxgateway.audit.tlog;

/**
 * Where the complete subtrees of a log are kept. Every node that appending creates is complete for
 * good, so it is stored once, and numbered in the order appends create them: leaf {@code i} adds its
 * own hash and then one node per level it completes. This numbering is dense, so a store keeps nodes
 * under one integer key and writes them in key order.
 */
public final class TreeNodes {

    private TreeNodes() {
    }

    /** The key of the node at {@code level} (0 = leaves) covering leaves {@code [index·2^level, (index+1)·2^level)}. */
    public static long key(int level, long index) {
        long lastLeaf = ((index + 1) << level) - 1;
        return createdBefore(lastLeaf) + level;
    }

    /** How many nodes the first {@code leaves} leaves create: {@code leaves + leaves/2 + leaves/4 + ...}. */
    public static long createdBefore(long leaves) {
        long count = 0;
        for (long n = leaves; n > 0; n >>= 1) {
            count += n;
        }
        return count;
    }

    /** The largest power of two below {@code n} (n ≥ 2): where RFC 9162 splits a tree of n leaves. */
    static long split(long n) {
        return Long.highestOneBit(n - 1);
    }
}
