package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestException;
import java.security.MessageDigest;
import java.util.HexFormat;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.config.PolicyProperties;

/**
 * Keyed pseudonyms: the first 16 hex characters of HMAC-SHA256(key, value). The same value gives the
 * same pseudonym in every file, on every replica, across restarts, so joins still work; without the
 * key a pseudonym cannot be reversed or recomputed. The key never leaves this class; {@link #keyId()}
 * identifies it in audit records so a rotation is traceable.
 */
public final class Pseudonymizer {

    private static final String KEY = "gateway.policy.org.sanitization.pseudonymization-key";
    /** A pseudonym's length in characters. */
    static final int LENGTH = 16;

    private final String keyId;
    /**
     * The digests of the padded key blocks (RFC 2104's inner and outer), which every pseudonym starts from: only ever
     * cloned, never updated, so every session shares them.
     */
    private final MessageDigest inner;
    private final MessageDigest outer;

    Pseudonymizer(byte[] key) {
        this.keyId = "hmac-sha256:" + HexFormat.of().formatHex(sha256(key), 0, 4);
        byte[] innerBlock = java.util.Arrays.copyOf(key.length > 64 ? sha256(key) : key, 64);
        byte[] outerBlock = innerBlock.clone();
        for (int i = 0; i < 64; i++) {
            innerBlock[i] ^= 0x36;
            outerBlock[i] ^= 0x5c;
        }
        this.inner = Sha256.digest();
        this.outer = Sha256.digest();
        inner.update(innerBlock);
        outer.update(outerBlock);
    }

    /**
     * The pseudonymizer the policy asks for: none when it pseudonymizes nothing, else one keyed by
     * {@code pseudonymization-key} (the key itself, or {@code file:/path} to read it from a file).
     *
     * @throws InvalidSettingException when columns are to be pseudonymized but no usable key is set:
     *         the gateway refuses to start rather than pass identifiers in clear
     */
    public static Pseudonymizer fromPolicy(PolicyProperties.Sanitization policy, boolean neededForPersonalData) {
        String setting = policy.pseudonymizationKey();
        if (setting == null || setting.isBlank()) {
            if (!policy.pseudonymizeColumns().isEmpty() || neededForPersonalData) {
                throw new InvalidSettingException(KEY, null, "it is empty, but pseudonyms are required "
                        + "(gateway.policy.org.sanitization.pseudonymize-columns or gateway.policy.org.pii.action=pseudonymize)",
                        "Set GATEWAY_PSEUDONYM_KEY to a secret of at least 16 bytes (or file:/path/to/key), "
                                + "or pseudonymize no columns.");
            }
            return null;
        }
        byte[] key = setting.startsWith("file:") ? readKeyFile(Path.of(setting.substring(5))) : setting.getBytes(StandardCharsets.UTF_8);
        if (key.length < 16) {
            throw new InvalidSettingException(KEY, null, "the key is " + key.length + " bytes long; it needs at least 16 bytes",
                    "Set GATEWAY_PSEUDONYM_KEY to a longer secret, e.g. the output of 'openssl rand -hex 32'.");
        }
        return new Pseudonymizer(key);
    }

    private static byte[] readKeyFile(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidSettingException(KEY, "file:" + file, "the key file cannot be read ("
                    + e.getClass().getSimpleName() + ")", "Mount the key file at that path, readable by the gateway's user.");
        }
    }

    /** The pseudonym of one value (a fresh session each time; for occasional values, not whole files). */
    public String pseudonym(CharSequence value) {
        return session().pseudonym(value);
    }

    /** A public identifier of the key (a short hash of it), safe to log and to record. */
    public String keyId() {
        return keyId;
    }

    /** A pseudonymizing function for one thread's use (its buffers are not thread-safe). */
    Session session() {
        return new Session(inner, outer, keyId);
    }

    private static byte[] sha256(byte[] bytes) {
        return Sha256.digest().digest(bytes);
    }

    /**
     * Pseudonymizes values one after another on one thread (its buffers are its own). HMAC as RFC 2104 defines
     * it, from the digests of the padded key blocks the pseudonymizer made once: each value then costs two
     * SHA-256 compressions instead of four, which is most of the cost of sanitizing a large file.
     */
    static final class Session {
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        private final MessageDigest inner;
        private final MessageDigest outer;
        private final String keyId;
        private final byte[] digest = new byte[32];
        private final byte[] hex = new byte[LENGTH];
        private byte[] encoded = new byte[64];

        /** @param inner the inner key block's digest, only cloned here; {@code outer} the outer one's */
        private Session(MessageDigest inner, MessageDigest outer, String keyId) {
            this.inner = inner;
            this.outer = outer;
            this.keyId = keyId;
        }

        String keyId() {
            return keyId;
        }

        /** The pseudonym of {@code value}; an empty value stays empty. */
        String pseudonym(CharSequence value) {
            int encodedLength = utf8(value); // may grow the buffer: before it is read
            return new String(hex, 0, pseudonym(encoded, 0, encodedLength, hex), StandardCharsets.US_ASCII);
        }

        /**
         * Writes the pseudonym of the UTF-8 bytes {@code value[offset, offset + length)} into {@code target}
         * as {@value #LENGTH} ASCII hex digits; an empty value has an empty pseudonym.
         *
         * @return how many bytes were written: {@value #LENGTH}, or 0 for an empty value
         */
        int pseudonym(byte[] value, int offset, int length, byte[] target) {
            if (length == 0) {
                return 0;
            }
            try {
                MessageDigest innerHash = clone(inner);
                innerHash.update(value, offset, length);
                innerHash.digest(digest, 0, digest.length);
                MessageDigest outerHash = clone(outer);
                outerHash.update(digest);
                outerHash.digest(digest, 0, digest.length);
            } catch (DigestException e) {
                throw new IllegalStateException("the JDK's SHA-256 digest is 32 bytes long", e);
            }
            for (int i = 0; i < LENGTH / 2; i++) {
                target[2 * i] = HEX[(digest[i] >> 4) & 0xf];
                target[2 * i + 1] = HEX[digest[i] & 0xf];
            }
            return LENGTH;
        }

        /** Encodes into the reusable buffer; ASCII, the common case, without a detour through String. */
        private int utf8(CharSequence value) {
            int length = value.length();
            if (encoded.length < length * 3) {
                encoded = new byte[length * 3];
            }
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c >= 0x80) {
                    byte[] bytes = value.toString().getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(bytes, 0, encoded, 0, bytes.length);
                    return bytes.length;
                }
                encoded[i] = (byte) c;
            }
            return length;
        }

        private static MessageDigest clone(MessageDigest digest) {
            try {
                return (MessageDigest) digest.clone();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException("the JDK's SHA-256 digest is cloneable", e);
            }
        }
    }
}
