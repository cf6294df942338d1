package com.sandboxgateway.audit.tlog;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 9162 (§2.1) proofs over a log whose complete subtrees a {@link NodeSource} holds: tree heads of
 * any earlier size, inclusion proofs and consistency proofs, and their verification. Every subtree
 * these algorithms ask for starts at a multiple of a power of two no smaller than itself, so it is
 * either one stored node or two such subtrees.
 */
public final class MerkleProofs {

    private MerkleProofs() {
    }

    /** The root of the tree of the first {@code size} leaves. */
    public static byte[] root(long size, NodeSource nodes) {
        return size == 0 ? MerkleHash.empty() : range(0, size, nodes);
    }

    /** The audit path of leaf {@code index} in the tree of {@code size} leaves, nearest sibling first. */
    public static List<byte[]> inclusion(long index, long size, NodeSource nodes) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf " + index + " is not in a tree of " + size);
        }
        List<byte[]> proof = new ArrayList<>();
        path(index, 0, size, nodes, proof);
        return proof;
    }

    private static void path(long index, long from, long to, NodeSource nodes, List<byte[]> proof) {
        if (to - from == 1) {
            return;
        }
        long middle = from + TreeNodes.split(to - from);
        if (index < middle) {
            path(index, from, middle, nodes, proof);
            proof.add(range(middle, to, nodes));
        } else {
            path(index, middle, to, nodes, proof);
            proof.add(range(from, middle, nodes));
        }
    }

    /** The proof that the tree of {@code to} leaves extends the tree of its first {@code from} (0 < from ≤ to). */
    public static List<byte[]> consistency(long from, long to, NodeSource nodes) {
        if (from < 1 || from > to) {
            throw new IllegalArgumentException("no consistency proof from " + from + " to " + to + "; need 0 < from <= to");
        }
        List<byte[]> proof = new ArrayList<>();
        subproof(from, 0, to, true, nodes, proof);
        return proof;
    }

    private static void subproof(long m, long from, long to, boolean complete, NodeSource nodes, List<byte[]> proof) {
        long n = to - from;
        if (m == n) {
            if (!complete) {
                proof.add(range(from, to, nodes));
            }
            return;
        }
        long k = TreeNodes.split(n);
        if (m <= k) {
            subproof(m, from, from + k, complete, nodes, proof);
            proof.add(range(from + k, to, nodes));
        } else {
            subproof(m - k, from + k, to, false, nodes, proof);
            proof.add(range(from, from + k, nodes));
        }
    }

    /** The hash of leaves {@code [from, to)}. */
    private static byte[] range(long from, long to, NodeSource nodes) {
        long n = to - from;
        if (Long.bitCount(n) == 1) {
            int level = Long.numberOfTrailingZeros(n);
            return nodes.node(level, from >>> level);
        }
        long middle = from + TreeNodes.split(n);
        return MerkleHash.node(range(from, middle, nodes), range(middle, to, nodes));
    }

    /** Whether {@code proof} shows the leaf with {@code leafHash} at {@code index} in the tree of {@code size} with {@code root}. */
    public static boolean verifyInclusion(byte[] leafHash, long index, long size, List<byte[]> proof, byte[] root) {
        if (index < 0 || index >= size) {
            return false;
        }
        long fn = index;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : proof) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = MerkleHash.node(p, r);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>>= 1;
                    sn >>>= 1;
                }
            } else {
                r = MerkleHash.node(r, p);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(r, root);
    }

    /** Whether {@code proof} shows the tree of {@code to} leaves with {@code toRoot} extends the one of {@code from} with {@code fromRoot}. */
    public static boolean verifyConsistency(long from, long to, byte[] fromRoot, byte[] toRoot, List<byte[]> proof) {
        if (from < 1 || from > to) {
            return false;
        }
        if (from == to) {
            return proof.isEmpty() && MessageDigest.isEqual(fromRoot, toRoot);
        }
        List<byte[]> path = new ArrayList<>(proof);
        if (Long.bitCount(from) == 1) {
            path.addFirst(fromRoot);
        }
        if (path.isEmpty()) {
            return false;
        }
        long fn = from - 1;
        long sn = to - 1;
        while ((fn & 1) == 1) {
            fn >>>= 1;
            sn >>>= 1;
        }
        byte[] fr = path.getFirst();
        byte[] sr = path.getFirst();
        for (byte[] c : path.subList(1, path.size())) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = MerkleHash.node(c, fr);
                sr = MerkleHash.node(c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>>= 1;
                    sn >>>= 1;
                }
            } else {
                sr = MerkleHash.node(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(fr, fromRoot) && MessageDigest.isEqual(sr, toRoot);
    }
}
