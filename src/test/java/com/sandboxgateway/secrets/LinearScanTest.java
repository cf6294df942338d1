package com.sandboxgateway.secrets;

import static com.sandboxgateway.support.StepCountingLoader.call;
import static com.sandboxgateway.support.StepCountingLoader.method;

import java.lang.reflect.Method;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.sandboxgateway.support.LinearGrowth;
import com.sandboxgateway.support.StepCountingLoader;

/**
 * The scanner's work is linear in its input, counted rather than timed: inputs of n, 2n and 4n
 * characters made of long runs of near-matches for each rule, scanned whole and streamed in chunks,
 * take at most about twice the steps each time the input doubles (support/LinearGrowth). Steps are
 * branches of this package's code and characters the JDK's string and regex methods look at
 * (support/StepCountingLoader).
 */
class LinearScanTest {

    private static final int N = 8 * 1024;
    /** Far more than the stream's window, so the window's fixed size shows as the constant it is. */
    private static final int STREAMED_N = 16 * StreamingScan.CONTEXT;
    private static final StepCountingLoader COUNTED = new StepCountingLoader("com.sandboxgateway.secrets");

    static Stream<Arguments> inputs() {
        return Stream.of(
                input("letters", n -> "a".repeat(n)),
                input("sk- then dashes", n -> "sk-" + "a-".repeat(n / 2)),
                input("repeated sk-", n -> "sk-".repeat(n / 3)),
                input("vendor prefixes", n -> "ghp_xoxb-AKIAglpat-sk-ant-".repeat(n / 26)),
                input("digits", n -> "1".repeat(n)),
                input("digit groups", n -> "4111 ".repeat(n / 5)),
                input("phone-like groups", n -> "+1 415 ".repeat(n / 7)),
                input("dashed digits", n -> "123-45-".repeat(n / 7)),
                input("at signs", n -> "@".repeat(n)),
                input("emails glued", n -> "a@b.".repeat(n / 4)),
                input("long local part", n -> "x".repeat(n) + "@example.com"),
                input("long domain", n -> "x@" + "a.".repeat(n / 2)),
                input("colons", n -> ":".repeat(n)),
                input("equals", n -> "=".repeat(n)),
                input("password assignments", n -> "password=".repeat(n / 9)),
                input("quoted assignments", n -> "secret=\"".repeat(n / 8)),
                input("token colon runs", n -> "token: " + "Ab1!".repeat(n / 4)),
                input("url schemes", n -> "://".repeat(n / 3)),
                input("url userinfo", n -> "http://" + "a:".repeat(n / 2) + "@"),
                input("jdbc", n -> "jdbc:".repeat(n / 5)),
                input("jdbc passwords", n -> "jdbc:x:" + ";password=".repeat(n / 10)),
                input("pem headers", n -> "-----BEGIN PRIVATE KEY-----".repeat(n / 27)),
                input("pem header then base64", n -> "-----BEGIN PRIVATE KEY-----" + "A".repeat(n)),
                input("dashes", n -> "-".repeat(n)),
                input("jwt prefixes", n -> "eyJ".repeat(n / 3)),
                input("jwt dots", n -> "eyJhbGciOiJIUzI1NiJ9" + ".a".repeat(n / 2)),
                input("aws keyword then base64", n -> "aws " + "Ab1/".repeat(n / 4)),
                input("akia", n -> "AKIA".repeat(n / 4)),
                input("iban starts", n -> "DE89 ".repeat(n / 5)),
                input("upper and digits", n -> "AB12".repeat(n / 4)),
                input("slack", n -> "xoxb-1-".repeat(n / 7)),
                input("placeholder telltales", n -> "password=changeme".repeat(n / 17)),
                input("nested quantifier bait", n -> "a".repeat(n / 2) + "!" + "ab".repeat(n / 4)),
                input("escaped newlines", n -> "\\n".repeat(n / 2)),
                input("lines", n -> "api_key=x\n".repeat(n / 10)));
    }

    private static Arguments input(String name, IntFunction<String> input) {
        return Arguments.of(name, input);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void shouldScanInStepsLinearInTheText(String name, IntFunction<String> input) {
        Object scanner = call(COUNTED.staticMethod(SecretScanner.class.getName(), "standard"), null);
        Method scan = method(scanner, "scan", CharSequence.class);

        LinearGrowth.assertLinear(name, N, input, text -> call(scan, scanner, text));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void shouldStreamInStepsLinearInTheText(String name, IntFunction<String> input) {
        Object scanner = call(COUNTED.staticMethod(SecretScanner.class.getName(), "standard"), null);
        Method streaming = method(scanner, "streaming");

        LinearGrowth.assertLinear(name, STREAMED_N, input, text -> {
            Object scan = call(streaming, scanner);
            Method feed = method(scan, "feed", CharSequence.class);
            for (int i = 0; i < text.length(); i += 1024) {
                call(feed, scan, text.substring(i, Math.min(text.length(), i + 1024)));
            }
            call(method(scan, "finish"), scan);
        });
    }
}
