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

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
