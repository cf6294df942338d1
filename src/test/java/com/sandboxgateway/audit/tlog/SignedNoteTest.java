package com.sandboxgateway.audit.tlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;

import org.junit.jupiter.api.Test;

/**
 * Signed notes against the vectors of Go's {@code golang.org/x/mod/sumdb/note} tests (written down here):
 * the same seed gives the same verifier key and, Ed25519 being deterministic, the same signature bytes.
 */
class SignedNoteTest {

    /** {@code PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz}, without its 0x01 algorithm byte. */
    private static final String PETER_SEED = Base64.getEncoder().encodeToString(Arrays.copyOfRange(
            Base64.getDecoder().decode("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"), 1, 33));
    private static final String PETER_KEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
    private static final String TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
    private static final String PETER_SIGNATURE =
            "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
    private static final String ENOCH_SIGNATURE =
            "\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

    @Test
    void shouldSignExactlyAsGosNotePackage() {
        NoteSigner signer = NoteSigner.of("PeterNeumann", PETER_SEED);

        assertThat(signer.verifierKey()).isEqualTo(PETER_KEY);
        assertThat(signer.sign(TEXT)).isEqualTo(TEXT + "\n" + PETER_SIGNATURE);
    }

    @Test
    void shouldOpenANoteSignedByItsKeyAmongOtherSignatures() {
        NoteVerifier verifier = NoteVerifier.parse(PETER_KEY);

        assertThat(verifier.open(TEXT + "\n" + PETER_SIGNATURE + ENOCH_SIGNATURE)).isEqualTo(TEXT);
        assertThat(verifier.open(TEXT + "\n" + ENOCH_SIGNATURE + PETER_SIGNATURE)).isEqualTo(TEXT);
    }

    @Test
    void shouldRefuseATamperedOrForeignNote() {
        NoteVerifier verifier = NoteVerifier.parse(PETER_KEY);

        assertThatThrownBy(() -> verifier.open(TEXT.replace("answer", "Answer") + "\n" + PETER_SIGNATURE))
                .hasMessageContaining("does not match");
        assertThatThrownBy(() -> verifier.open(TEXT + "\n" + ENOCH_SIGNATURE)).hasMessageContaining("no signature by PeterNeumann");
        assertThatThrownBy(() -> verifier.open(TEXT)).hasMessageContaining("not a signed note");
        assertThatThrownBy(() -> NoteVerifier.parse(PETER_KEY.replace("c74f20a3", "c74f20a4"))).hasMessageContaining("does not match");
    }

    @Test
    void shouldTakeAPkcs8PemKeyAsWellAsASeed() throws Exception {
        var pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        NoteSigner signer = NoteSigner.of("audit.example/log", pem);
        byte[] x509 = pair.getPublic().getEncoded();

        assertThat(Base64.getDecoder().decode(signer.verifierKey().split("\\+", 3)[2]))
                .endsWith(Arrays.copyOfRange(x509, x509.length - 32, x509.length));
        String note = signer.sign(new Checkpoint("audit.example/log", 3, new byte[32]).body());
        assertThat(NoteVerifier.parse(signer.verifierKey()).open(note)).isEqualTo("audit.example/log\n3\n"
                + Base64.getEncoder().encodeToString(new byte[32]) + "\n");
    }

    @Test
    void shouldNeverShowABadKeyInItsMessage() {
        String notBase64 = "this-is-a-secret-key-that-must-not-be-echoed!";
        String shortSeed = Base64.getEncoder().encodeToString("a secret of 20 bytes".getBytes());

        assertThatThrownBy(() -> NoteSigner.of("log", notBase64)).message().doesNotContain(notBase64);
        assertThatThrownBy(() -> NoteSigner.of("log", shortSeed)).hasMessageContaining("32 bytes").message().doesNotContain(shortSeed);
        assertThatThrownBy(() -> NoteSigner.of("log", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))
                .hasMessageContaining("not a PKCS#8 Ed25519");
    }

    @Test
    void shouldSplitAFileOfNotesWrittenOneAfterAnother() {
        String first = TEXT + "\n" + PETER_SIGNATURE;
        String second = "log\n2\nAAAA\n\n" + ENOCH_SIGNATURE + PETER_SIGNATURE;

        assertThat(NoteVerifier.split(first + "\n" + second + "\n")).containsExactly(first, second);
    }
}
