package com.sandboxgateway.audit.tlog;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The hashes of an RFC 9162 Merkle tree: SHA-256 with a one-byte prefix that keeps leaves ({@code 0x00})
 * and interior nodes ({@code 0x01}) apart, so no leaf can pass for a subtree.
 */
public final class MerkleHash {

    /** Hash sizes in bytes. */
    public static final int SIZE = 32;
    private static final MessageDigest SHA_256;

    static {
        try {
            SHA_256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private MerkleHash() {
    }

    /** The root of the empty tree: SHA-256 of nothing. */
    public static byte[] empty() {
        return sha256().digest();
    }

    public static byte[] leaf(byte[] entry) {
        MessageDigest digest = sha256();
        digest.update((byte) 0x00);
        return digest.digest(entry);
    }

    public static byte[] node(byte[] left, byte[] right) {
        MessageDigest digest = sha256();
        digest.update((byte) 0x01);
        digest.update(left);
        return digest.digest(right);
    }

    /**
     * A fresh SHA-256 digest. Each audit record takes several (its chain hash, its leaf, the nodes it completes, its
     * code's hash), so it is cloned from one that is never used rather than looked up among the security providers.
     */
    public static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the platform's SHA-256 cannot be cloned", e);
        }
    }
}
