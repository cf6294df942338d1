package com.sandboxgateway.secrets;

import static com.sandboxgateway.secrets.Scans.found;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

/** PEM private keys and JWTs: structured secrets recognized by their framing rather than a prefix alone. */
class KeyAndTokenRulesTest {

    private final FakeSecrets fake = new FakeSecrets(2);

    @Test
    void shouldFindAPemKeyFromHeaderToFooterWithRealOrEscapedLineBreaks() {
        String real = fake.privateKey("RSA PRIVATE KEY", 20, "\n");
        String escaped = fake.privateKey("PRIVATE KEY", 20, "\\n");
        String crlf = fake.privateKey("EC PRIVATE KEY", 3, "\r\n");

        assertThat(found("key:\n" + real + "\nnext")).containsExactly("private-key=" + real);
        assertThat(found("{\"private_key\": \"" + escaped + "\\n\"}")).containsExactly("private-key=" + escaped);
        assertThat(found("7,\"" + crlf + "\",prod")).containsExactly("private-key=" + crlf);
    }

    @Test
    void shouldFindOpenSshEncryptedAndPgpKeys() {
        for (String label : new String[] {"OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"}) {
            String key = fake.privateKey(label, 5, "\n");
            assertThat(found(key)).containsExactly("private-key=" + key);
        }
    }

    @Test
    void shouldReportAHeaderLineAloneAsAScannerReadingLineByLineSeesIt() {
        assertThat(found("-----BEGIN OPENSSH PRIVATE KEY-----")).containsExactly("private-key=-----BEGIN OPENSSH PRIVATE KEY-----");
    }

    @Test
    void shouldFindAKeyWithoutFooterByItsBody() {
        String body = fake.chars(FakeSecrets.BASE64, 300);

        assertThat(found("-----BEGIN PRIVATE KEY-----" + body + " (truncated)"))
                .containsExactly("private-key=-----BEGIN PRIVATE KEY-----" + body);
    }

    @Test
    void shouldIgnorePublicKeysCertificatesAndElidedExamples() {
        assertThat(found("-----BEGIN PUBLIC KEY-----\n" + fake.chars(FakeSecrets.BASE64, 300) + "\n-----END PUBLIC KEY-----")).isEmpty();
        assertThat(found("-----BEGIN CERTIFICATE-----\n" + fake.chars(FakeSecrets.BASE64, 300) + "\n-----END CERTIFICATE-----")).isEmpty();
        assertThat(found("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg...\n-----END PRIVATE KEY-----")).isEmpty();
        assertThat(found("A key starts with -----BEGIN RSA PRIVATE KEY----- followed by base64 lines that are never shown here")).isEmpty();
    }

    @Test
    void shouldFindJwtsWhoseHeaderNamesAnAlgorithm() {
        String jwt = fake.jwt();

        assertThat(found("Authorization: Bearer " + jwt)).containsExactly("jwt=" + jwt);
        assertThat(found("token " + jwt + ".")).as("a full stop after the token").containsExactly("jwt=" + jwt);
    }

    @Test
    void shouldFindEncryptedJwtsWithFiveSegments() {
        String header = base64Url("{\"alg\":\"RSA-OAEP\",\"enc\":\"A256GCM\"}");
        String jwe = header + "." + fake.chars(FakeSecrets.BASE64URL, 342) + "." + fake.chars(FakeSecrets.BASE64URL, 16)
                + "." + fake.chars(FakeSecrets.BASE64URL, 80) + "." + fake.chars(FakeSecrets.BASE64URL, 22);

        assertThat(found(jwe)).containsExactly("jwt=" + jwe);
    }

    @Test
    void shouldIgnoreDottedBase64WithoutAnAlgorithmAndUnsignedTokens() {
        String noAlgorithm = base64Url("{\"typ\":\"JWT\"}") + "." + base64Url("{\"sub\":\"1\"}") + "." + fake.chars(FakeSecrets.BASE64URL, 43);
        String unsigned = base64Url("{\"alg\":\"none\"}") + "." + base64Url("{\"sub\":\"1\"}") + ".";

        assertThat(found(noAlgorithm)).isEmpty();
        assertThat(found(unsigned)).isEmpty();
        assertThat(found("eyJhbGciOiJIUzI1NiJ9 alone is only a header")).isEmpty();
    }

    private static String base64Url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
