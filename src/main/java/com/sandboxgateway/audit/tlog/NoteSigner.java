package com.sandboxgateway.audit.tlog;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * Signs notes in the C2SP {@code signed-note} format with an Ed25519 key under a name. The key is
 * never shown: {@link #verifierKey()} is the public half, in the form verifiers are configured with.
 */
public final class NoteSigner {

    private final String name;
    private final PrivateKey privateKey;
    private final NoteVerifier verifier;

    private NoteSigner(String name, PrivateKey privateKey, byte[] publicKey) {
        this.name = name;
        this.privateKey = privateKey;
        this.verifier = new NoteVerifier(name, publicKey);
    }

    /**
     * A signer from a key given as a PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}) or as the base64 of
     * the 32-byte Ed25519 seed.
     *
     * @throws IllegalArgumentException when it is neither; the message never contains the key
     */
    public static NoteSigner of(String name, String key) {
        NoteVerifier.checkName(name);
        byte[] seed = key.contains("-----BEGIN") ? seedOfPem(key) : seedOfBase64(key);
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            // The JDK derives an Ed25519 key pair from the 32 bytes its random source gives: hand it the seed.
            generator.initialize(NamedParameterSpec.ED25519, new FixedSeed(seed));
            KeyPair pair = generator.generateKeyPair();
            byte[] encoded = pair.getPublic().getEncoded();
            return new NoteSigner(name, pair.getPrivate(), Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is required by every Java platform since 15", e);
        } finally {
            Arrays.fill(seed, (byte) 0);
        }
    }

    private static byte[] seedOfBase64(String key) {
        byte[] seed;
        try {
            seed = Base64.getDecoder().decode(key.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("it is neither a PKCS#8 PEM private key nor base64");
        }
        if (seed.length != 32) {
            throw new IllegalArgumentException("a base64 seed must decode to 32 bytes, not " + seed.length);
        }
        return seed;
    }

    private static byte[] seedOfPem(String pem) {
        String body = pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        try {
            PrivateKey key = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
            return ((EdECPrivateKey) key).getBytes().orElseThrow(() -> new IllegalArgumentException("the PEM key holds no seed"));
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new IllegalArgumentException("the PEM is not a PKCS#8 Ed25519 private key");
        }
    }

    public String name() {
        return name;
    }

    /** {@code <name>+<hex key id>+<base64(0x01 || public key)>}: what a verifier is given. */
    public String verifierKey() {
        return verifier.verifierKey();
    }

    public NoteVerifier verifier() {
        return verifier;
    }

    /** The signed note: {@code text} (ending in a newline), a blank line, and this key's signature line. */
    public String sign(String text) {
        if (text.isEmpty() || !text.endsWith("\n")) {
            throw new IllegalArgumentException("a note's text ends with a newline");
        }
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(privateKey);
            signature.update(text.getBytes(StandardCharsets.UTF_8));
            byte[] signed = signature.sign();
            byte[] line = new byte[4 + signed.length];
            System.arraycopy(verifier.keyId(), 0, line, 0, 4);
            System.arraycopy(signed, 0, line, 4, signed.length);
            return text + "\n" + NoteVerifier.SIGNATURE_PREFIX + name + " " + Base64.getEncoder().encodeToString(line) + "\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with Ed25519", e);
        }
    }

    /** A random source that yields one fixed seed: how the JDK is asked for the key pair of a known seed. */
    private static final class FixedSeed extends SecureRandom {

        private final byte[] seed;

        FixedSeed(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("expected a request for a " + seed.length + "-byte seed");
            }
            System.arraycopy(seed, 0, bytes, 0, seed.length);
            Arrays.fill(seed, (byte) 0);
        }
    }
}
