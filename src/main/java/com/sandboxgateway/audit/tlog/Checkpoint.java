package com.sandboxgateway.audit.tlog;

import java.util.Base64;

/**
 * A C2SP {@code tlog-checkpoint}: the log's origin, its tree size and the RFC 9162 root over that many
 * leaves. Signed, it pins every record before it.
 *
 * @param origin names the log (the signing key has the same name)
 * @param size leaves covered
 * @param root the tree head over them
 */
public record Checkpoint(String origin, long size, byte[] root) {

    public Checkpoint {
        if (origin == null || origin.isBlank() || origin.contains("\n")) {
            throw new IllegalArgumentException("a checkpoint's origin is one non-empty line");
        }
        if (size < 0 || root.length != MerkleHash.SIZE) {
            throw new IllegalArgumentException("a checkpoint has a size >= 0 and a 32-byte root");
        }
        root = root.clone();
    }

    @Override
    public byte[] root() {
        return root.clone();
    }

    /** The note text: origin, size and base64 root, one per line. */
    public String body() {
        return origin + "\n" + size + "\n" + Base64.getEncoder().encodeToString(root) + "\n";
    }

    /** Reads a checkpoint body (extension lines after the root are allowed and ignored). */
    public static Checkpoint parse(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 3) {
            throw new IllegalArgumentException("a checkpoint has an origin, a size and a root line");
        }
        try {
            return new Checkpoint(lines[0], Long.parseUnsignedLong(lines[1]), Base64.getDecoder().decode(lines[2]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a checkpoint: " + e.getMessage());
        }
    }
}
