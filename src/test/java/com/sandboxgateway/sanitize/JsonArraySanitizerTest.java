package com.sandboxgateway.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

class JsonArraySanitizerTest {

    @Test
    void shouldRewriteEachObjectOfAPrettyPrintedArrayLikeAJsonLinesLine() throws Exception {
        String json = "\uFEFF[\n  {\n    \"customer_id\": \"C-1\",\n    \"Customer_SSN\": \"123-45-6789\",\n    \"items\": [1, 2]\n  },\n"
                + "  {\"customer_id\": null, \"nested\": {\"customer_ssn\": \"kept: only top-level keys are columns\"}}\n]\n";

        Rewriting.Result result = new Rewriting().rewrite("orders.json", json.getBytes(StandardCharsets.UTF_8));

        assertThat(new String(result.bytes(), StandardCharsets.UTF_8)).isEqualTo("[\n{\"customer_id\":\"" + Rewriting.pseudonym("C-1")
                + "\",\"items\":[1,2]},\n{\"customer_id\":null,\"nested\":{\"customer_ssn\":\"kept: only top-level keys are columns\"}}\n]\n");
        assertThat(result.report().header()).isEqualTo("format=json; dropped=customer_ssn; pseudonymized=customer_id; rows=2");
    }

    @Test
    void shouldKeepAnEmptyArrayEmpty() throws Exception {
        assertThat(new String(new Rewriting().rewrite("none.json", "[]".getBytes(StandardCharsets.UTF_8)).bytes(), StandardCharsets.UTF_8))
                .isEqualTo("[\n]\n");
    }

    @Test
    void shouldRefuseItemsThatAreNotObjectsBrokenJsonAndMissingKeysNamingWhere() {
        assertRefused(new Rewriting(), "[{\"a\":1},\n 2]", ErrorCode.INVALID_FILE, "Line 2: item 2 is not an object");
        assertRefused(new Rewriting(), "[{\"a\":1},\n{\"a\":", ErrorCode.INVALID_FILE, "Line 2: the file is not valid JSON");
        assertRefused(new Rewriting(), "[{\"a\":1}] {}", ErrorCode.INVALID_FILE, "more after the array");
        assertRefused(new Rewriting().requiring("orders", Set.of("order_id")), "[{\"order_id\":1},\n{\"a\":2}]",
                ErrorCode.MISSING_REQUIRED_COLUMNS, "Item 2 (line 2) lacks the keys profile 'orders' requires: order_id");
    }

    private static void assertRefused(Rewriting rewriting, String json, ErrorCode code, String message) {
        assertThatThrownBy(() -> rewriting.rewrite("data.json", json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(message);
                });
    }
}
