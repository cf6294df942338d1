package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.config.PolicyProperties;

class PseudonymizerTest {

    @Test
    void shouldMatchTheStandardHmacForShortLongAndUnicodeInput() throws Exception {
        for (String key : List.of("sixteen-byte-key", "k".repeat(64), "a-key-longer-than-one-sha256-block-".repeat(3))) {
            Pseudonymizer.Session session = new Pseudonymizer(key.getBytes(StandardCharsets.UTF_8)).session();
            for (String value : List.of("C-1", "ann@example.com", "Zoë 😀", "x".repeat(500))) {
                assertThat(session.pseudonym(value)).as(key + " / " + value).isEqualTo(hmac16(key, value));
            }
        }
    }

    @Test
    void shouldGiveTheSamePseudonymInEverySession() {
        Pseudonymizer first = new Pseudonymizer("a-stable-key-0001".getBytes(StandardCharsets.UTF_8));
        Pseudonymizer restarted = new Pseudonymizer("a-stable-key-0001".getBytes(StandardCharsets.UTF_8));

        assertThat(first.session().pseudonym("C-42")).isEqualTo(restarted.session().pseudonym("C-42"));
        assertThat(first.keyId()).isEqualTo(restarted.keyId());
    }

    @Test
    void shouldGiveEveryThreadTheStandardHmacFromTheOneKeyedStart() throws Exception {
        String key = "a-shared-key-0001";
        Pseudonymizer pseudonymizer = new Pseudonymizer(key.getBytes(StandardCharsets.UTF_8));

        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<List<String>>> wrong = IntStream.range(0, 8).mapToObj(thread -> threads.submit(() -> {
                Pseudonymizer.Session session = pseudonymizer.session();
                List<String> mismatches = new ArrayList<>();
                for (int i = 0; i < 2_000; i++) {
                    String value = "C-" + thread + "-" + i;
                    String expected = hmac16(key, value);
                    if (!session.pseudonym(value).equals(expected) || !pseudonymizer.pseudonym(value).equals(expected)) {
                        mismatches.add(value);
                    }
                }
                return mismatches;
            })).toList();
            for (Future<List<String>> mismatches : wrong) {
                assertThat(mismatches.get()).isEmpty();
            }
        }
    }

    @Test
    void shouldReadTheKeyFromAFileAndNeverStartWithoutOneWhenNeeded(@TempDir Path dir) throws Exception {
        Path keyFile = Files.writeString(dir.resolve("key"), "from-a-mounted-secret\n");

        Pseudonymizer fromFile = Pseudonymizer.fromPolicy(policy("file:" + keyFile, List.of("email")), false);

        assertThat(fromFile.session().pseudonym("x")).isEqualTo(hmac16("from-a-mounted-secret", "x"));
        assertThat(Pseudonymizer.fromPolicy(policy(null, List.of()), false)).isNull();
        assertThatThrownBy(() -> Pseudonymizer.fromPolicy(policy("", List.of("email")), false))
                .hasMessageContaining("pseudonymization-key");
        assertThatThrownBy(() -> Pseudonymizer.fromPolicy(policy("short", List.of("email")), false))
                .hasMessageContaining("16 bytes").hasMessageNotContaining("short");
    }

    private static PolicyProperties.Sanitization policy(String key, List<String> columns) {
        return new PolicyProperties.Sanitization(key, List.of(), columns, true, Map.of());
    }

    private static String hmac16(String key, String value) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }
}
