package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class StreamingScanTest {

    private final SecretScanner scanner = SecretScanner.standard();
    private final FakeSecrets fake = new FakeSecrets(6);

    @Test
    void shouldFindASecretStraddlingAChunkBoundaryOnceWithItsStreamOffsetAndLine() {
        String token = fake.gitHubToken();
        String before = filler(70_000) + "\n\nkey=";
        String text = before + token + "\n" + filler(10_000);
        long start = before.length();

        for (int cut = 1; cut < token.length(); cut += 7) {
            List<StreamFinding> found = scanInTwo(text, before.length() + cut);

            assertThat(found).as("cut %d characters into the token", cut)
                    .containsExactly(new StreamFinding("github-token", Finding.Kind.SECRET, start, start + token.length(), lineOf(text, start)));
        }
    }

    @Test
    void shouldFindAPemKeySplitAcrossManySmallChunks() {
        String key = fake.privateKey("RSA PRIVATE KEY", 25, "\n");
        String text = filler(5_000) + "\n" + key + "\n" + filler(5_000);

        List<StreamFinding> found = scanInChunks(text, 1_000);

        long start = text.indexOf("-----BEGIN");
        assertThat(found).containsExactly(new StreamFinding("private-key", Finding.Kind.SECRET, start, start + key.length(), lineOf(text, start)));
    }

    @Test
    void shouldFindEveryPlantedValueInALongTextWhetherScannedWholeOrStreamed() {
        StringBuilder text = new StringBuilder();
        List<StreamFinding> planted = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            text.append(filler(fake.nextInt(3_000))).append(i % 2 == 0 ? " value " : "\nvalue ");
            String ruleId = switch (i % 6) {
                case 0 -> "github-token";
                case 1 -> "email";
                case 2 -> "us-ssn";
                case 3 -> "jwt";
                case 4 -> "payment-card";
                default -> "openai-api-key";
            };
            String value = switch (i % 6) {
                case 0 -> fake.gitHubToken();
                case 1 -> fake.email();
                case 2 -> fake.ssn();
                case 3 -> fake.jwt();
                case 4 -> fake.cardNumber("4", 16);
                default -> fake.openAiProjectKey();
            };
            long start = text.length();
            Finding.Kind kind = ruleId.equals("email") || ruleId.equals("us-ssn") || ruleId.equals("payment-card") ? Finding.Kind.PII : Finding.Kind.SECRET;
            planted.add(new StreamFinding(ruleId, kind, start, start + value.length(), lineOf(text.toString(), start)));
            text.append(value).append('\n');
        }

        List<StreamFinding> whole = SecretScanner.standard().scan(text).stream()
                .map(f -> new StreamFinding(f.ruleId(), f.kind(), f.start(), f.end(), lineOf(text.toString(), f.start()))).toList();

        assertThat(whole).containsExactlyElementsOf(planted);
        assertThat(scanInChunks(text.toString(), 64 * 1024)).containsExactlyElementsOf(planted);
        assertThat(scanInChunks(text.toString(), 5_000)).containsExactlyElementsOf(planted);
    }

    @Test
    void shouldFindEverythingInAStreamShorterThanOneChunkOnFinish() {
        StreamingScan scan = scanner.streaming();

        assertThat(scan.feed("SSN 123-45-6789")).isEmpty();
        assertThat(scan.finish()).containsExactly(new StreamFinding("us-ssn", Finding.Kind.PII, 4, 15, 1));
        assertThat(scan.length()).isEqualTo(15);
    }

    @Test
    void shouldRefuseChunksAfterFinish() {
        StreamingScan scan = scanner.streaming();
        scan.finish();

        assertThatThrownBy(() -> scan.feed("more")).isInstanceOf(IllegalStateException.class);
        assertThat(scan.finish()).isEmpty();
    }

    private List<StreamFinding> scanInTwo(String text, int cut) {
        StreamingScan scan = scanner.streaming();
        List<StreamFinding> found = new ArrayList<>(scan.feed(text.substring(0, cut)));
        found.addAll(scan.feed(text.substring(cut)));
        found.addAll(scan.finish());
        return found;
    }

    private List<StreamFinding> scanInChunks(String text, int chunk) {
        StreamingScan scan = scanner.streaming();
        List<StreamFinding> found = new ArrayList<>();
        for (int i = 0; i < text.length(); i += chunk) {
            found.addAll(scan.feed(text.substring(i, Math.min(text.length(), i + chunk))));
        }
        found.addAll(scan.finish());
        return found;
    }

    /** Prose with line breaks and no findings. */
    private String filler(int length) {
        StringBuilder text = new StringBuilder(length);
        String[] words = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ", "dogs, ", "42 ", "times.\n"};
        while (text.length() < length) {
            text.append(words[fake.nextInt(words.length)]);
        }
        text.setLength(length);
        return text.toString();
    }

    private static long lineOf(String text, long offset) {
        return 1 + text.substring(0, (int) offset).chars().filter(c -> c == '\n').count();
    }
}
