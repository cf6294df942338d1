package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever the table looks like, nothing of a dropped column survives sanitizing. */
class DroppedColumnPropertyTest {

    private static final SanitizationRules DROP_SSN = new SanitizationRules(Set.of("customer_ssn"), Set.of("email"), true, null, Set.of());

    @Property(tries = 300)
    void droppedValuesNeverAppearInTheOutput(@ForAll("tables") Table table) throws IOException {
        String out = CsvSanitizerTest.sanitize(table.csv(), DROP_SSN);

        for (String secret : table.droppedValues()) {
            assertThat(out).doesNotContain(secret);
        }
        assertThat(out).doesNotContainIgnoringCase("customer_ssn").doesNotContainIgnoringCase("customer ssn");
    }

    @Provide
    Arbitrary<Table> tables() {
        Arbitrary<String> cell = Arbitraries.strings().withChars("abcXYZ019 ,\"\n\r\t=+-@é€😀").ofMaxLength(12);
        Arbitrary<String> droppedHeader = Arbitraries.of("customer_ssn", "CUSTOMER_SSN", " customer_ssn ", "Customer_SSN\t", "ｃｕｓｔｏｍｅｒ_ｓｓｎ");
        Arbitrary<String> otherHeader = Arbitraries.of("id", "name", "email", "amount", "notes");
        return Combinators.combine(
                otherHeader.list().ofMinSize(1).ofMaxSize(5),
                droppedHeader.list().ofMinSize(1).ofMaxSize(3),
                Arbitraries.integers().between(0, 20),
                cell.list().ofSize(200),
                Arbitraries.randoms()).as(Table::build);
    }

    /** A CSV table with one or more copies of a dropped column whose every value is a unique marker. */
    record Table(String csv, List<String> droppedValues) {

        static Table build(List<String> others, List<String> dropped, int rows, List<String> cells, java.util.Random random) {
            List<String> headers = new ArrayList<>(others);
            for (String name : dropped) {
                headers.add(random.nextInt(headers.size() + 1), name);
            }
            StringBuilder csv = new StringBuilder(String.join(",", headers.stream().map(Table::quote).toList())).append('\n');
            List<String> secrets = new ArrayList<>();
            int next = 0;
            for (int r = 0; r < rows; r++) {
                List<String> row = new ArrayList<>();
                for (String header : headers) {
                    if (dropped.contains(header)) {
                        String secret = "SSN" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36) + "Z";
                        secrets.add(secret);
                        row.add(quote(secret));
                    } else {
                        row.add(quote(cells.get(next++ % cells.size())));
                    }
                }
                csv.append(String.join(",", row)).append(random.nextBoolean() ? "\n" : "\r\n");
            }
            return new Table(csv.toString(), secrets);
        }

        private static String quote(String cell) {
            return "\"" + cell.replace("\"", "\"\"") + "\"";
        }
    }
}
