package com.sandboxgateway.audit.tlog;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

import com.sandboxgateway.api.Sha256;

/** Checks C2SP signed notes against one Ed25519 verifier key ({@code <name>+<hex key id>+<base64(0x01 || key)>}). */
public final class NoteVerifier {

    static final String SIGNATURE_PREFIX = "\u2014 ";
    private static final byte ED25519 = 0x01;
    /** The DER prefix of an X.509 Ed25519 public key, before its 32 bytes. */
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
    private static final Pattern NAME = Pattern.compile("[^\\s+]+");

    private final String name;
    private final byte[] publicKey;
    private final byte[] keyId;

    NoteVerifier(String name, byte[] publicKey) {
        this.name = name;
        this.publicKey = publicKey.clone();
        this.keyId = keyId(name, publicKey);
    }

    /** @throws IllegalArgumentException when {@code key} is not an Ed25519 verifier key whose id matches */
    public static NoteVerifier parse(String key) {
        String[] parts = key.strip().split("\\+", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a verifier key reads <name>+<hex key id>+<base64 key>");
        }
        byte[] encoded = Base64.getDecoder().decode(parts[2]);
        if (encoded.length != 33 || encoded[0] != ED25519) {
            throw new IllegalArgumentException("the verifier key is not an Ed25519 key (0x01 and 32 bytes)");
        }
        NoteVerifier verifier = new NoteVerifier(checkName(parts[0]), Arrays.copyOfRange(encoded, 1, 33));
        if (!HexFormat.of().formatHex(verifier.keyId).equals(parts[1])) {
            throw new IllegalArgumentException("the verifier key's id " + parts[1] + " does not match its name and key");
        }
        return verifier;
    }

    static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a key name is non-empty, without spaces or '+'");
        }
        return name;
    }

    public String name() {
        return name;
    }

    public String verifierKey() {
        byte[] encoded = new byte[33];
        encoded[0] = ED25519;
        System.arraycopy(publicKey, 0, encoded, 1, 32);
        return name + "+" + HexFormat.of().formatHex(keyId) + "+" + Base64.getEncoder().encodeToString(encoded);
    }

    byte[] keyId() {
        return keyId.clone();
    }

    /**
     * The text of {@code note} when it carries a valid signature by this key (other signatures are ignored).
     *
     * @throws IllegalArgumentException saying what is wrong: malformed, not signed by this key, bad signature
     */
    public String open(String note) {
        int end = note.lastIndexOf("\n\n");
        if (end < 0 || !note.endsWith("\n")) {
            throw new IllegalArgumentException("not a signed note: no blank line before the signatures");
        }
        String text = note.substring(0, end + 1);
        boolean signedByMe = false;
        for (String line : note.substring(end + 2).split("\n")) {
            if (!line.startsWith(SIGNATURE_PREFIX)) {
                throw new IllegalArgumentException("not a signed note: '" + line + "' is not a signature line");
            }
            String[] parts = line.substring(SIGNATURE_PREFIX.length()).split(" ");
            byte[] signature = parts.length == 2 ? Base64.getDecoder().decode(parts[1]) : new byte[0];
            if (parts.length != 2 || signature.length < 5) {
                throw new IllegalArgumentException("not a signed note: malformed signature line");
            }
            if (parts[0].equals(name) && Arrays.equals(signature, 0, 4, keyId, 0, 4)) {
                if (!valid(text, Arrays.copyOfRange(signature, 4, signature.length))) {
                    throw new IllegalArgumentException("the signature by " + name + " does not match the note");
                }
                signedByMe = true;
            }
        }
        if (!signedByMe) {
            throw new IllegalArgumentException("the note carries no signature by " + name + "+" + HexFormat.of().formatHex(keyId));
        }
        return text;
    }

    private boolean valid(String text, byte[] signature) {
        try {
            byte[] x509 = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + 32);
            System.arraycopy(publicKey, 0, x509, X509_PREFIX.length, 32);
            PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(x509));
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(text.getBytes(StandardCharsets.UTF_8));
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** The signed notes in a file that holds them one after another (a file witness), blank lines between. */
    public static List<String> split(String notes) {
        List<String> split = new ArrayList<>();
        StringBuilder note = new StringBuilder();
        boolean inSignatures = false;
        for (String line : notes.split("\n", -1)) {
            if (inSignatures && !line.startsWith(SIGNATURE_PREFIX)) {
                split.add(note.toString());
                note.setLength(0);
                inSignatures = false;
            }
            if (note.isEmpty() && line.isEmpty()) {
                continue;
            }
            if (line.startsWith(SIGNATURE_PREFIX) && note.toString().endsWith("\n\n")) {
                inSignatures = true;
            }
            note.append(line).append('\n');
        }
        if (inSignatures) {
            split.add(note.toString());
        }
        return split;
    }

    private static byte[] keyId(String name, byte[] publicKey) {
        MessageDigest digest = Sha256.digest();
        digest.update((name + "\n").getBytes(StandardCharsets.UTF_8));
        digest.update(ED25519);
        return Arrays.copyOf(digest.digest(publicKey), 4);
    }
}
