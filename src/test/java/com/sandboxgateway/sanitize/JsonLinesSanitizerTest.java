package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

import tools.jackson.databind.json.JsonMapper;

class JsonLinesSanitizerTest {

    private static final SanitizationRules RULES = new SanitizationRules(Set.of("ssn"), Set.of("customer_id", "profile"),
            true, null, Set.of());

    @Test
    void shouldDropAndPseudonymizeTopLevelKeysOnly() throws Exception {
        String out = sanitize("{\"SSN\":\"1\",\"customer_id\":42,\"nested\":{\"ssn\":\"kept\"},\"profile\":{\"a\":[1,2]}}\n", RULES);

        assertThat(out).isEqualTo("{\"customer_id\":\"" + CsvSanitizerTest.hmac16("42") + "\",\"nested\":{\"ssn\":\"kept\"},"
                + "\"profile\":\"" + CsvSanitizerTest.hmac16("{\"a\":[1,2]}") + "\"}\n");
    }

    @Test
    void shouldKeepNullsAndSkipBlankLinesAndABom() throws IOException {
        String out = sanitize("\uFEFF{\"customer_id\":null}\r\n\n   \n{\"x\":1}", RULES);

        assertThat(out).isEqualTo("{\"customer_id\":null}\n{\"x\":1}\n");
    }

    @Test
    void shouldRefuseALineThatIsNotAnObjectNamingIt() {
        assertInvalid("{\"a\":1}\n\"text\"\n", "Line 2: the line is JSON but not an object");
        assertInvalid("{\"a\":1}\n{\"a\":\n", "Line 2: the line is not valid JSON");
    }

    @Test
    void shouldRequireTheProfilesKeysOnEveryLine() {
        SanitizationRules orders = new SanitizationRules(Set.of(), Set.of(), true, "orders", Set.of("order_id", "amount"));

        assertThatThrownBy(() -> sanitize("{\"order_id\":1,\"Amount\":2}\n{\"order_id\":2}\n", orders))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.MISSING_REQUIRED_COLUMNS);
                    assertThat(e.getMessage()).startsWith("Line 2").contains("amount");
                });
    }

    private static void assertInvalid(String jsonl, String message) {
        assertThatThrownBy(() -> sanitize(jsonl, RULES)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE);
            assertThat(e.getMessage()).startsWith(message);
        });
    }

    private static String sanitize(String jsonl, SanitizationRules rules) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JsonLinesSanitizer(rules, CsvSanitizerTest.PSEUDONYMIZER.session(), JsonMapper.builder().build(), null, null)
                .sanitize(new ByteArrayInputStream(jsonl.getBytes(StandardCharsets.UTF_8)), out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
