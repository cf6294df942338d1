package com.sandboxgateway.secrets;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

/**
 * Generates fake credentials and personal data in the real formats, with valid checksums where the
 * format has one (Luhn, IBAN mod 97). Seeded, so every run tests the same values.
 */
final class FakeSecrets {

    static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static final String DIGITS = "0123456789";
    static final String ALNUM = UPPER + UPPER.toLowerCase() + DIGITS;
    static final String BASE64URL = ALNUM + "_-";
    static final String BASE64 = ALNUM + "+/";

    private final Random random;

    FakeSecrets(long seed) {
        this.random = new Random(seed);
    }

    String chars(String alphabet, int count) {
        StringBuilder out = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    String openAiProjectKey() {
        return "sk-proj-" + chars(BASE64URL, 74) + "T3BlbkFJ" + chars(BASE64URL, 74);
    }

    String openAiLegacyKey() {
        return "sk-" + chars(ALNUM, 20) + "T3BlbkFJ" + chars(ALNUM, 20);
    }

    String awsAccessKeyId() {
        return new String[] {"AKIA", "ASIA", "ABIA", "ACCA"}[random.nextInt(4)] + chars(UPPER + "234567", 16);
    }

    String awsSecretKey() {
        return chars(BASE64, 40);
    }

    String gitHubToken() {
        return random.nextBoolean()
                ? "gh" + "pousr".charAt(random.nextInt(5)) + "_" + chars(ALNUM, 36)
                : "github_pat_" + chars(ALNUM, 22) + "_" + chars(ALNUM, 59);
    }

    String slackBotToken() {
        return "xoxb-" + chars(DIGITS, 12) + "-" + chars(DIGITS, 13) + "-" + chars(ALNUM, 24);
    }

    String stripeKey() {
        return (random.nextBoolean() ? "sk" : "rk") + (random.nextBoolean() ? "_live_" : "_test_") + chars(ALNUM, 24);
    }

    String googleApiKey() {
        return "AIza" + chars(BASE64URL, 35);
    }

    String jwt() {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        String header = encoder.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = encoder.encodeToString(("{\"sub\":\"" + random.nextInt(1_000_000) + "\",\"iat\":1716239022}")
                .getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + "." + chars(BASE64URL, 43);
    }

    /** A PEM private key with {@code lines} body lines of 64 characters, lines joined by {@code newline}. */
    String privateKey(String label, int lines, String newline) {
        StringBuilder pem = new StringBuilder("-----BEGIN ").append(label).append("-----").append(newline);
        for (int i = 0; i < lines; i++) {
            pem.append(chars(BASE64, 64)).append(newline);
        }
        return pem.append(chars(BASE64, 20)).append("==").append(newline).append("-----END ").append(label).append("-----").toString();
    }

    String password() {
        return chars(ALNUM, 12) + "!#%*".charAt(random.nextInt(4)) + chars(DIGITS, 2);
    }

    /** A card number of {@code length} digits starting with {@code prefix} whose last digit makes the Luhn sum right. */
    String cardNumber(String prefix, int length) {
        String body = prefix + chars(DIGITS, length - prefix.length() - 1);
        for (char check = '0'; check <= '9'; check++) {
            String candidate = body + check;
            if (PaymentCardRule.passesLuhn(candidate, 0, candidate.length())) {
                return candidate;
            }
        }
        throw new AssertionError("unreachable: one check digit always fits");
    }

    /** An IBAN of the country's registered length with a random numeric BBAN and correct check digits. */
    String iban(String country) {
        String bban = chars(DIGITS, IbanRule.LENGTHS.get(country) - 4);
        String rearranged = bban + country + "00";
        StringBuilder digits = new StringBuilder();
        for (char c : rearranged.toCharArray()) {
            digits.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
        }
        int check = 98 - new BigInteger(digits.toString()).mod(BigInteger.valueOf(97)).intValue();
        return country + String.format("%02d", check) + bban;
    }

    String ssn() {
        int area = 1 + random.nextInt(665);
        return String.format("%03d-%02d-%04d", area, 1 + random.nextInt(99), 1 + random.nextInt(9999));
    }

    String email() {
        return chars(UPPER.toLowerCase(), 6) + "." + chars(UPPER.toLowerCase(), 5) + "@" + chars(UPPER.toLowerCase(), 7) + ".com";
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }
}
