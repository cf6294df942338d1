package com.sandboxgateway.audit.tlog;

import java.security.MessageDigest;

import com.sandboxgateway.api.Sha256;

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
        return Sha256.digest().digest();
    }

    public static byte[] leaf(byte[] entry) {
        MessageDigest digest = Sha256.digest();
        digest.update((byte) 0x00);
        return digest.digest(entry);
    }

    public static byte[] node(byte[] left, byte[] right) {
        MessageDigest digest = Sha256.digest();
        digest.update((byte) 0x01);
        digest.update(left);
        return digest.digest(right);
    }
}
