package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Recall beyond the hand-written corpus: thousands of freshly generated values per rule, each in a
 * random one of the contexts a value turns up in, must each be found whole by their rule.
 */
class GeneratedSecretsTest {

    private static final int VALUES_PER_RULE = 2_000;
    private static final String[] CONTEXTS = {"%s", "value: %s", "\"%s\"", "x,%s,y", "(%s)", "{\"v\": \"%s\"}", "line one\n%s\nline three", "see %s."};

    static Stream<Arguments> generators() {
        return Stream.of(
                Arguments.of("openai-api-key", (Function<FakeSecrets, String>) FakeSecrets::openAiProjectKey),
                Arguments.of("openai-api-key", (Function<FakeSecrets, String>) FakeSecrets::openAiLegacyKey),
                Arguments.of("aws-access-key-id", (Function<FakeSecrets, String>) FakeSecrets::awsAccessKeyId),
                Arguments.of("github-token", (Function<FakeSecrets, String>) FakeSecrets::gitHubToken),
                Arguments.of("slack-token", (Function<FakeSecrets, String>) FakeSecrets::slackBotToken),
                Arguments.of("stripe-key", (Function<FakeSecrets, String>) FakeSecrets::stripeKey),
                Arguments.of("google-api-key", (Function<FakeSecrets, String>) FakeSecrets::googleApiKey),
                Arguments.of("jwt", (Function<FakeSecrets, String>) FakeSecrets::jwt),
                Arguments.of("email", (Function<FakeSecrets, String>) FakeSecrets::email),
                Arguments.of("us-ssn", (Function<FakeSecrets, String>) FakeSecrets::ssn),
                Arguments.of("payment-card", (Function<FakeSecrets, String>) GeneratedSecretsTest::card),
                Arguments.of("iban", (Function<FakeSecrets, String>) f -> f.iban(List.of("DE", "FR", "GB", "NL", "ES", "IT", "NO", "CH").get(f.nextInt(8)))));
    }

    /** A card of a random network, at a length that network issues. */
    private static String card(FakeSecrets fake) {
        return switch (fake.nextInt(5)) {
            case 0 -> fake.cardNumber("4", 16);
            case 1 -> fake.cardNumber("5" + (1 + fake.nextInt(5)), 16);
            case 2 -> fake.cardNumber("37", 15);
            case 3 -> fake.cardNumber("6011", 16);
            default -> fake.cardNumber("3528", 19);
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generators")
    void shouldFindEveryGeneratedValueInAnyContext(String ruleId, Function<FakeSecrets, String> generator) {
        FakeSecrets fake = new FakeSecrets(ruleId.hashCode());
        SecretScanner scanner = SecretScanner.standard();
        for (int i = 0; i < VALUES_PER_RULE; i++) {
            String value = generator.apply(fake);
            String context = CONTEXTS[fake.nextInt(CONTEXTS.length)];
            String text = context.formatted(value);
            int start = context.indexOf("%s");

            assertThat(scanner.scan(text)).as("%s in %s", value, context)
                    .anySatisfy(f -> assertThat(f).extracting(Finding::ruleId, Finding::start, Finding::end)
                            .containsExactly(ruleId, start, start + value.length()));
        }
    }
}
