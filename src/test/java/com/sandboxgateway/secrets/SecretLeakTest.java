package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Nothing this package produces, a finding, a toString or an exception message, quotes a detected value. */
class SecretLeakTest {

    private final SecretScanner scanner = SecretScanner.standard();
    private final FakeSecrets fake = new FakeSecrets(7);

    @Test
    void shouldKeepValuesOutOfFindingsAndTheirToString() {
        List<String> secrets = List.of(fake.openAiProjectKey(), fake.gitHubToken(), fake.awsAccessKeyId(), fake.jwt(),
                fake.password(), fake.cardNumber("4", 16), fake.iban("DE"), fake.ssn(), fake.email(),
                fake.privateKey("PRIVATE KEY", 4, "\n"));
        String text = "a=" + secrets.get(0) + " b " + secrets.get(1) + " c " + secrets.get(2) + " d " + secrets.get(3)
                + " password=" + secrets.get(4) + " card " + secrets.get(5) + " iban " + secrets.get(6) + " ssn "
                + secrets.get(7) + " mail " + secrets.get(8) + "\n" + secrets.get(9);

        List<Finding> findings = scanner.scan(text);
        StreamingScan streaming = scanner.streaming();
        List<StreamFinding> streamed = new ArrayList<>(streaming.feed(text));
        streamed.addAll(streaming.finish());

        assertThat(findings).hasSize(secrets.size());
        assertThat(streamed).hasSize(secrets.size());
        String printed = findings + " " + streamed + " " + scanner + " " + streaming;
        for (String secret : secrets) {
            assertThat(printed).doesNotContain(secret);
        }
        assertThat(Finding.class.getRecordComponents()).extracting(c -> c.getName()).containsExactly("ruleId", "kind", "start", "end");
    }

    @Test
    void shouldKeepValuesOutOfExceptionMessages() {
        String secret = fake.gitHubToken();
        String text = "token " + secret;

        Throwable beyondTheText = catchThrowable(() -> scanner.redact(text, List.of(new Finding("github-token", Finding.Kind.SECRET, 6, 99))));
        Throwable badFinding = catchThrowable(() -> new Finding("github-token", Finding.Kind.SECRET, 9, 3));
        StreamingScan finished = scanner.streaming();
        finished.feed(text);
        finished.finish();
        Throwable afterFinish = catchThrowable(() -> finished.feed(secret));

        for (Throwable thrown : List.of(beyondTheText, badFinding, afterFinish)) {
            assertThat(thrown).isNotNull();
            assertThat(thrown.getMessage()).doesNotContain(secret).doesNotContain(text);
        }
    }
}
