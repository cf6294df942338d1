package com.sandboxgateway.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, as every request (its bearer's hash) and every audit record (its chain hash, leaf, tree nodes and code hash)
 * takes it: each digest is cloned from one that is never used, rather than looked up among the security providers.
 */
public final class Sha256 {

    private static final MessageDigest PROTOTYPE;
    private static final HexFormat HEX = HexFormat.of();

    static {
        try {
            PROTOTYPE = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private Sha256() {
    }

    /** A fresh digest. */
    public static MessageDigest digest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the platform's SHA-256 cannot be cloned", e);
        }
    }

    /** The lowercase hex SHA-256 of the text's UTF-8 bytes. */
    public static String hex(String text) {
        return HEX.formatHex(digest().digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
