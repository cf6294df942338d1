package com.sandboxgateway.audit.tlog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The right edge of a log's Merkle tree: the roots of its complete subtrees, largest first, one per
 * set bit of the tree size. It is all an append needs (a new leaf merges with at most log2(n) of them)
 * and all the root needs, so appending and signing never read the rest of the tree.
 */
public final class TreeFrontier {

    private static final HexFormat HEX = HexFormat.of();

    private long size;
    private final List<byte[]> subtrees;

    private TreeFrontier(long size, List<byte[]> subtrees) {
        this.size = size;
        this.subtrees = subtrees;
    }

    public static TreeFrontier empty() {
        return new TreeFrontier(0, new ArrayList<>());
    }

    /** Reads what {@link #encoded()} wrote for a tree of {@code size} leaves. */
    public static TreeFrontier decode(long size, String encoded) {
        List<byte[]> subtrees = new ArrayList<>();
        if (encoded != null && !encoded.isEmpty()) {
            Arrays.stream(encoded.split(",")).map(HEX::parseHex).forEach(subtrees::add);
        }
        if (subtrees.size() != Long.bitCount(size) || subtrees.stream().anyMatch(hash -> hash.length != MerkleHash.SIZE)) {
            throw new IllegalStateException("the stored tree state does not fit a tree of " + size + " leaves");
        }
        return new TreeFrontier(size, subtrees);
    }

    /**
     * The frontier of a tree of {@code size} leaves read from its stored nodes: the root of each complete subtree along
     * its right edge is a node an append stored when it completed it.
     */
    public static TreeFrontier of(long size, NodeSource nodes) {
        List<byte[]> subtrees = new ArrayList<>();
        long covered = 0;
        for (int level = 63 - Long.numberOfLeadingZeros(size); level >= 0; level--) {
            if ((size >>> level & 1) == 1) {
                byte[] hash = nodes.node(level, covered >>> level);
                if (hash == null) {
                    throw new IllegalStateException("the audit tree lacks its node " + level + "/" + (covered >>> level));
                }
                subtrees.add(hash);
                covered += 1L << level;
            }
        }
        return new TreeFrontier(size, subtrees);
    }

    /** Adds a leaf; {@code created} learns every node that became complete, the leaf first. */
    public void append(byte[] leafHash, NodeSink created) {
        long index = size;
        byte[] hash = leafHash;
        int level = 0;
        created.stored(level, index, hash);
        while ((index >>> level & 1) == 1) {
            hash = MerkleHash.node(subtrees.removeLast(), hash);
            level++;
            created.stored(level, index >>> level, hash);
        }
        subtrees.add(hash);
        size++;
    }

    public long size() {
        return size;
    }

    /** The tree head: the RFC 9162 root over every leaf appended. */
    public byte[] root() {
        if (subtrees.isEmpty()) {
            return MerkleHash.empty();
        }
        byte[] root = subtrees.getLast();
        for (int i = subtrees.size() - 2; i >= 0; i--) {
            root = MerkleHash.node(subtrees.get(i), root);
        }
        return root;
    }

    /** The subtree roots as comma-separated hex, for the one row that holds the log's head. */
    public String encoded() {
        return String.join(",", subtrees.stream().map(HEX::formatHex).toList());
    }

    /** Receives the nodes an append completes. */
    @FunctionalInterface
    public interface NodeSink {
        void stored(int level, long index, byte[] hash);
    }
}
