package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PackedFieldsTest {

    @Test
    void shouldUnpackWhatItPackedFieldByField() {
        String longText = "x".repeat(70_000) + "é";
        Object[] fields = {"rec-1", null, "ünïcödé ✓ 🐍", "", Boolean.TRUE, Boolean.FALSE, Long.MIN_VALUE, -1L, 1_765_000_000_000_000L,
                new String[] {"env_access", "network"}, new String[0], longText, "a".repeat(127), "b".repeat(128), "c".repeat(16_384)};

        Object[] unpacked = PackedFields.unpack(PackedFields.pack(fields), fields.length);

        assertThat(unpacked).containsExactly(fields);
    }

    @Test
    void shouldTakeOnlyTheTypesAStoredRecordHas() {
        assertThatThrownBy(() -> PackedFields.pack("ok", 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Integer");
    }

    @Test
    void shouldRefuseBytesThatAreNotPackedFields() {
        assertThatThrownBy(() -> PackedFields.unpack(new byte[] {9}, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tag 9");
    }
}
