package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenericFormatTest {

    @TempDir
    Path dir;

    /** Keys of every size the generic type writes differently: small, negative, near the ends of the range. */
    private static final List<Long> LONGS = List.of(0L, 1L, 7L, 8L, 255L, 65_536L, 1L << 40, Long.MAX_VALUE, -1L, -8L,
            -65_536L, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE + 42);
    private static final List<String> STRINGS = List.of("", "a", "i0190f3e4-7a1b-7c2d-8e3f-000000000001", "k\u00e9t",
            "u5:alice000000000000002a", "x\u4e2d\u6587", "indexed", "Z", "z".repeat(300));

    @Test
    void shouldReadWhatTheGenericTypeWroteAndWriteWhatItReads() {
        Path file = dir.resolve("maps.mv.db");
        Map<Long, Object> longs = new LinkedHashMap<>();
        Map<String, Long> strings = new LinkedHashMap<>();
        Random random = new Random(18);
        LONGS.forEach(key -> longs.put(key, new Object[] {key, "v" + key, null}));
        STRINGS.forEach(key -> strings.put(key, random.nextLong()));
        for (int i = 0; i < 2_000; i++) {
            longs.put(random.nextLong(), new byte[] {(byte) i});
            strings.put(Long.toHexString(random.nextLong()), (long) i);
        }

        try (MVStore store = MVStore.open(file.toString())) {
            MVMap<Long, Object> generic = store.openMap("longs");
            MVMap<String, Long> genericStrings = store.openMap("strings");
            generic.putAll(longs);
            genericStrings.putAll(strings);
        }
        try (MVStore store = MVStore.open(file.toString())) {
            MVMap<Long, Object> typed = store.openMap("longs", new MVMap.Builder<Long, Object>().keyType(GenericFormat.LONGS));
            MVMap<String, Long> typedStrings = store.openMap("strings",
                    new MVMap.Builder<String, Long>().keyType(GenericFormat.STRINGS).valueType(GenericFormat.LONGS));
            assertThat(new ArrayList<>(typed.keySet())).containsExactlyElementsOf(new TreeMap<>(longs).keySet());
            assertThat(new ArrayList<>(typedStrings.keySet())).containsExactlyElementsOf(new TreeMap<>(strings).keySet());
            longs.forEach((key, value) -> assertThat(typed.get(key)).isEqualTo(value));
            strings.forEach((key, value) -> assertThat(typedStrings.get(key)).isEqualTo(value));
            assertThat(typed.get(12_345L)).isNull();
            assertThat(typed.higherKey(Long.MIN_VALUE + 1)).isEqualTo(Long.MIN_VALUE + 42);
            assertThat(typedStrings.ceilingKey("u")).isEqualTo("u5:alice000000000000002a");

            for (long key = 1; key <= 500; key++) {
                typed.put(-key * 3, "new" + key);
                typedStrings.put("n" + key, key);
                longs.put(-key * 3, "new" + key);
                strings.put("n" + key, key);
            }
        }
        try (MVStore store = MVStore.open(file.toString())) {
            MVMap<Long, Object> generic = store.openMap("longs");
            MVMap<String, Long> genericStrings = store.openMap("strings");
            assertThat(new ArrayList<>(generic.keySet())).containsExactlyElementsOf(new TreeMap<>(longs).keySet());
            assertThat(new ArrayList<>(genericStrings.keySet())).containsExactlyElementsOf(new TreeMap<>(strings).keySet());
            longs.forEach((key, value) -> assertThat(generic.get(key)).isEqualTo(value));
            strings.forEach((key, value) -> assertThat(genericStrings.get(key)).isEqualTo(value));
        }
    }

    @Test
    void shouldTellItsTypesApart() {
        assertThat(GenericFormat.LONGS).isEqualTo(GenericFormat.LONGS).isNotEqualTo(GenericFormat.STRINGS);
        assertThat(GenericFormat.LONGS.createStorage(3)).isInstanceOf(Long[].class).hasSize(3);
        assertThat(GenericFormat.STRINGS.compare("a", "b")).isNegative();
    }
}
