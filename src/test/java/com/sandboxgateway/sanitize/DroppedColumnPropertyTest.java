package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever the table looks like, nothing of a dropped column survives sanitizing: 300 random tables
 * (seeded, so a failure reproduces) with duplicated, re-cased, re-spaced and fullwidth copies of the
 * dropped header, and cells full of delimiters, quotes, line breaks and non-ASCII text.
 */
class DroppedColumnPropertyTest {

    private static final SanitizationRules DROP_SSN = new SanitizationRules(Set.of("customer_ssn"), Set.of("email"), true, null, Set.of());
    private static final List<String> DROPPED_HEADERS = List.of("customer_ssn", "CUSTOMER_SSN", " customer_ssn ", "Customer_SSN\t",
            "ｃｕｓｔｏｍｅｒ_ｓｓｎ");
    private static final List<String> OTHER_HEADERS = List.of("id", "name", "email", "amount", "notes");
    private static final String CELL_CHARS = "abcXYZ019 ,\"\n\r\t=+-@é€😀";

    static Stream<Long> seeds() {
        return IntStream.range(0, 300).mapToObj(seed -> 7919L * seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void droppedValuesNeverAppearInTheOutput(long seed) throws IOException {
        Random random = new Random(seed);
        List<String> headers = new ArrayList<>();
        for (int i = 1 + random.nextInt(5); i > 0; i--) {
            headers.add(OTHER_HEADERS.get(random.nextInt(OTHER_HEADERS.size())));
        }
        List<Integer> droppedAt = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            int at = random.nextInt(headers.size() + 1);
            headers.add(at, DROPPED_HEADERS.get(random.nextInt(DROPPED_HEADERS.size())));
        }
        for (int i = 0; i < headers.size(); i++) {
            if (DROPPED_HEADERS.contains(headers.get(i))) {
                droppedAt.add(i);
            }
        }
        StringBuilder csv = new StringBuilder(String.join(",", headers.stream().map(DroppedColumnPropertyTest::quote).toList())).append('\n');
        List<String> secrets = new ArrayList<>();
        for (int r = random.nextInt(21); r > 0; r--) {
            List<String> row = new ArrayList<>();
            for (int i = 0; i < headers.size(); i++) {
                if (droppedAt.contains(i)) {
                    String secret = "SSN" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36) + "Z";
                    secrets.add(secret);
                    row.add(quote(secret));
                } else {
                    row.add(quote(cell(random)));
                }
            }
            csv.append(String.join(",", row)).append(random.nextBoolean() ? "\n" : "\r\n");
        }

        String out = CsvSanitizerTest.sanitize(csv.toString(), DROP_SSN);

        for (String secret : secrets) {
            assertThat(out).doesNotContain(secret);
        }
        assertThat(out).doesNotContainIgnoringCase("customer_ssn");
    }

    private static String cell(Random random) {
        StringBuilder cell = new StringBuilder();
        int[] codePoints = CELL_CHARS.codePoints().toArray();
        for (int i = random.nextInt(13); i > 0; i--) {
            cell.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
        }
        return cell.toString();
    }

    private static String quote(String cell) {
        return "\"" + cell.replace("\"", "\"\"") + "\"";
    }
}
