package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

class CsvSanitizerTest {

    static final byte[] KEY = "unit-test-pseudonymization-key".getBytes(StandardCharsets.UTF_8);
    static final Pseudonymizer PSEUDONYMIZER = new Pseudonymizer(KEY);

    private static SanitizationRules rules(Set<String> drop, Set<String> pseudonymize) {
        return new SanitizationRules(drop, pseudonymize, true, null, Set.of());
    }

    @Test
    void shouldDropEveryDuplicateOfADroppedHeaderWhateverItsCaseAndSpacing() throws IOException {
        String out = sanitize("id,ssn,SSN, ssn ,name\n1,111,222,333,ann\n", rules(Set.of("ssn"), Set.of()));

        assertThat(out).isEqualTo("id,name\n1,ann\n");
    }

    @Test
    void shouldKeepABomAndAQuotedHeaderHoldingAComma() throws IOException {
        String out = sanitize("\uFEFF\"id, primary\",customer_ssn,email\r\n7,123-45-6789,a@x.io\r\n",
                rules(Set.of("customer_ssn"), Set.of()));

        assertThat(out).isEqualTo("\uFEFF\"id, primary\",email\r\n7,a@x.io\r\n");
    }

    @Test
    void shouldMatchADroppedHeaderBehindTheBom() throws IOException {
        assertThat(sanitize("\uFEFFssn,id\n1,2\n", rules(Set.of("ssn"), Set.of()))).isEqualTo("\uFEFFid\n2\n");
    }

    @Test
    void shouldRoundTripQuotedNewlinesQuotesAndDelimiters() throws IOException {
        String csv = "id,note\n1,\"two\nlines, and \"\"quotes\"\"\"\n2,\"crlf\r\ninside\"\n";

        assertThat(sanitize(csv, rules(Set.of(), Set.of()))).isEqualTo(csv);
    }

    @Test
    void shouldPseudonymizeWithTheKeyedHmacAndLeaveEmptyCellsEmpty() throws Exception {
        String out = sanitize("customer_id,amount\nC-1,10\n,20\nC-1,30\n", rules(Set.of(), Set.of("customer_id")));

        String expected = hmac16("C-1");
        assertThat(out).isEqualTo("customer_id,amount\n" + expected + ",10\n,20\n" + expected + ",30\n");
    }

    @Test
    void shouldDefuseFormulasButKeepSignedNumbers() throws IOException {
        String out = sanitize("a,b,c,d,e\n=SUM(A1),-12.5,+3,@cmd,-1e5\n\"\tx\",-,+a,=1+1,12\n", rules(Set.of(), Set.of()));

        assertThat(out).isEqualTo("a,b,c,d,e\n'=SUM(A1),-12.5,+3,'@cmd,-1e5\n'\tx,'-,'+a,'=1+1,12\n");
    }

    @Test
    void shouldRefuseARaggedRowNamingItsLine() {
        assertInvalid("a,b\n1,2\n3\n", "Line 3: the row has 1 fields where the header has 2");
        assertInvalid("a,b\n\"multi\nline\",2\n1,2,3\n", "Line 4:");
    }

    @Test
    void shouldRefuseAnUnclosedQuoteNamingWhereItOpened() {
        assertInvalid("a,b\n1,2\n3,\"never\nclosed\n", "Line 3: a quoted field opened here is never closed");
    }

    @Test
    void shouldRefuseInvalidUtf8NamingItsLine() {
        byte[] csv = "a,b\n1,2\n3,".getBytes(StandardCharsets.UTF_8);
        byte[] bad = new byte[csv.length + 2];
        System.arraycopy(csv, 0, bad, 0, csv.length);
        bad[csv.length] = (byte) 0xC3;
        bad[csv.length + 1] = (byte) 0x28;

        assertThatThrownBy(() -> sanitize(bad, rules(Set.of(), Set.of())))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE);
                    assertThat(e.getMessage()).startsWith("Line 3: the file is not valid UTF-8");
                });
    }

    @Test
    void shouldRefuseEveryFormOfBadUtf8TheStrictDecoderRefuses() {
        // A stray continuation byte, overlong forms, an encoded surrogate, beyond U+10FFFF, and sequences cut short.
        for (String hex : List.of("80", "c0af", "c1bf", "e08080", "eda080", "f08fbfbf", "f4908080", "f5808080", "ff", "c3", "e4b8",
                "f09f98")) {
            byte[] bad = concat("a,b\n1,2\n3,x".getBytes(StandardCharsets.UTF_8), HexFormat.of().parseHex(hex));

            assertThatThrownBy(() -> sanitize(bad, rules(Set.of(), Set.of()))).as(hex)
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE);
                        assertThat(e.getMessage()).startsWith("Line 3: the file is not valid UTF-8");
                    });
        }
    }

    @Test
    void shouldPassTextBeyondAsciiThroughByteForByteAndPseudonymizeItsUtf8() throws Exception {
        String csv = "name,email,note\nZoë 😀,zoë@例え.jp,\"中, 😀 \"\"quoted\"\"\"\n-😀,😀,=😀\n";

        String out = sanitize(csv, rules(Set.of(), Set.of("email")));

        assertThat(out).isEqualTo("name,email,note\nZoë 😀," + hmac16("zoë@例え.jp") + ",\"中, 😀 \"\"quoted\"\"\"\n'-😀,"
                + hmac16("😀") + ",'=😀\n");
    }

    @Test
    void shouldNameTheColumnsAProfileMisses() {
        SanitizationRules orders = new SanitizationRules(Set.of(), Set.of(), true, "orders",
                Set.of("order_id", "amount", "order_date"));

        assertThatThrownBy(() -> sanitize("Order_ID,amount\n1,2\n", orders))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.MISSING_REQUIRED_COLUMNS);
                    assertThat(e.getMessage()).contains("'orders'").contains("order_date").doesNotContain("order_id");
                });
    }

    @Test
    void shouldSanitizeTabSeparatedFilesAlike() throws IOException {
        byte[] tsv = "id\tssn\tnote\n1\t123\ta,b\n".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        SanitizationReport report = new CsvSanitizer('\t', rules(Set.of("ssn"), Set.of()), PSEUDONYMIZER.session(), null, null)
                .sanitize(new ByteArrayInputStream(tsv), out);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("id\tnote\n1\ta,b\n");
        assertThat(report.header()).isEqualTo("format=tsv; dropped=ssn; pseudonymized=; rows=1");
    }

    @Test
    void shouldReportWhatItDidWithTheKeyId() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        SanitizationReport report = new CsvSanitizer(',', rules(Set.of("ssn"), Set.of("email")), PSEUDONYMIZER.session(), null, null)
                .sanitize(new ByteArrayInputStream("email,ssn\na@b.c,1\n\nd@e.f,2\n".getBytes(StandardCharsets.UTF_8)), out);

        assertThat(report.rows()).isEqualTo(2);
        assertThat(report.dropped()).containsExactly("ssn");
        assertThat(report.pseudonymized()).containsExactly("email");
        assertThat(report.keyId()).isEqualTo(PSEUDONYMIZER.keyId()).startsWith("hmac-sha256:");
        assertThat(report.keyId()).doesNotContain(new String(KEY, StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    static String hmac16(String value) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }

    private static void assertInvalid(String csv, String message) {
        assertThatThrownBy(() -> sanitize(csv, rules(Set.of(), Set.of())))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE);
                    assertThat(e.getMessage()).startsWith(message);
                });
    }

    static String sanitize(String csv, SanitizationRules rules) throws IOException {
        return sanitize(csv.getBytes(StandardCharsets.UTF_8), rules);
    }

    static String sanitize(byte[] csv, SanitizationRules rules) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CsvSanitizer(',', rules, PSEUDONYMIZER.session(), null, null).sanitize(new ByteArrayInputStream(csv), out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
