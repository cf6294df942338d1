package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Megabyte inputs built to hurt: long runs of what rules look for, repeated prefixes and keywords,
 * near-misses of every shape. Every rule is linear (bounded look-ahead, no backtracking regex), so each
 * scan completes; a rule that went quadratic would make this class run for hours instead of seconds.
 * No time is asserted: the shared build machine's speed varies too much for that.
 */
class AdversarialInputTest {

    private static final int MB = 1 << 20;

    static Stream<Arguments> inputs() {
        return Stream.of(
                Arguments.of("letters", "a".repeat(MB)),
                Arguments.of("sk- then dashes", "sk-" + "a-".repeat(MB / 2)),
                Arguments.of("repeated sk-", "sk-".repeat(MB / 3)),
                Arguments.of("digits", "1".repeat(MB)),
                Arguments.of("digit groups", "4111 ".repeat(MB / 5)),
                Arguments.of("phone-like groups", "+1 415 ".repeat(MB / 7)),
                Arguments.of("dashed digits", "123-45-".repeat(MB / 7)),
                Arguments.of("at signs", "@".repeat(MB)),
                Arguments.of("emails glued", "a@b.".repeat(MB / 4)),
                Arguments.of("long local part", "x".repeat(MB) + "@example.com"),
                Arguments.of("long domain", "x@" + "a.".repeat(MB / 2)),
                Arguments.of("colons", ":".repeat(MB)),
                Arguments.of("equals", "=".repeat(MB)),
                Arguments.of("password assignments", "password=".repeat(MB / 9)),
                Arguments.of("token colon runs", "token: " + "Ab1!".repeat(MB / 4)),
                Arguments.of("url schemes", "://".repeat(MB / 3)),
                Arguments.of("url userinfo", "http://" + "a:".repeat(MB / 2) + "@"),
                Arguments.of("jdbc", "jdbc:".repeat(MB / 5)),
                Arguments.of("jdbc passwords", "jdbc:x:" + ";password=".repeat(MB / 10)),
                Arguments.of("pem headers", "-----BEGIN PRIVATE KEY-----".repeat(MB / 27)),
                Arguments.of("pem header then base64", "-----BEGIN PRIVATE KEY-----" + "A".repeat(MB)),
                Arguments.of("pem headers with bodies", ("-----BEGIN PRIVATE KEY-----" + "QUJD".repeat(20) + "\n").repeat(MB / 110)),
                Arguments.of("dashes", "-".repeat(MB)),
                Arguments.of("jwt prefixes", "eyJ".repeat(MB / 3)),
                Arguments.of("jwt dots", "eyJhbGciOiJIUzI1NiJ9" + ".a".repeat(MB / 2)),
                Arguments.of("aws keywords", "aws ".repeat(MB / 4)),
                Arguments.of("aws keyword then base64", "aws " + "Ab1/".repeat(MB / 4)),
                Arguments.of("akia", "AKIA".repeat(MB / 4)),
                Arguments.of("iban starts", "DE89 ".repeat(MB / 5)),
                Arguments.of("upper and digits", "AB12".repeat(MB / 4)),
                Arguments.of("slack", "xoxb-1-".repeat(MB / 7)),
                Arguments.of("nested quantifier bait", "a".repeat(MB / 2) + "!" + "ab".repeat(MB / 4)),
                Arguments.of("escaped newlines", "\\n".repeat(MB / 2)),
                Arguments.of("parentheses", "(1".repeat(MB / 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void shouldScanAMegabyteOfHostileTextInLinearTime(String name, String text) {
        var findings = SecretScanner.standard().scan(text);

        assertThat(findings).as(name).allSatisfy(f -> assertThat(f.end()).isLessThanOrEqualTo(text.length()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void shouldStreamAMegabyteOfHostileTextInLinearTime(String name, String text) {
        StreamingScan scan = SecretScanner.standard().streaming();
        for (int i = 0; i < text.length(); i += 64 * 1024) {
            scan.feed(text.substring(i, Math.min(text.length(), i + 64 * 1024)));
        }
        scan.finish();

        assertThat(scan.length()).isEqualTo(text.length());
    }
}
