package com.sandboxgateway.audit;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A record's fields packed into one byte array: what the embedded store keeps per audit record. Kept as an array of
 * fields, a record was some forty objects (each string two) that H2's page cache holds for a while after each write, and
 * that every young collection in that while copied one by one; packed, it is one array, copied whole.
 * <p>
 * Each field is a tag byte and its content: null; a string (its UTF-8 length as a variable-length number, then the
 * bytes); true or false; a long (eight bytes, big-endian); an array of strings (its length, then each string).
 */
final class PackedFields {

    private static final byte NULL = 0;
    private static final byte STRING = 1;
    private static final byte TRUE = 2;
    private static final byte FALSE = 3;
    private static final byte LONG = 4;
    private static final byte STRINGS = 5;

    private byte[] bytes;
    private int length;

    private PackedFields(int capacity) {
        bytes = new byte[capacity];
    }

    /** The fields (each null, a {@code String}, a {@code Boolean}, a {@code Long} or a {@code String[]}), packed. */
    static byte[] pack(Object... fields) {
        int estimate = 16;
        for (Object field : fields) {
            estimate += 2 + (field instanceof String text ? text.length() : 8);
        }
        PackedFields packed = new PackedFields(estimate);
        for (Object field : fields) {
            switch (field) {
                case null -> packed.put(NULL);
                case String text -> packed.putString(text);
                case Boolean flag -> packed.put(flag ? TRUE : FALSE);
                case Long number -> packed.putLong(number);
                case String[] texts -> {
                    packed.put(STRINGS);
                    packed.putLength(texts.length);
                    for (String text : texts) {
                        packed.putString(text);
                    }
                }
                default -> throw new IllegalArgumentException("cannot pack a " + field.getClass().getName());
            }
        }
        return Arrays.copyOf(packed.bytes, packed.length);
    }

    /** The fields {@link #pack} packed, in their order. */
    static Object[] unpack(byte[] bytes, int count) {
        Reader reader = new Reader(bytes);
        Object[] fields = new Object[count];
        for (int i = 0; i < count; i++) {
            fields[i] = reader.field();
        }
        return fields;
    }

    private void putString(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        put(STRING);
        putLength(utf8.length);
        room(utf8.length);
        System.arraycopy(utf8, 0, bytes, length, utf8.length);
        length += utf8.length;
    }

    private void putLong(long number) {
        put(LONG);
        room(Long.BYTES);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (number >>> shift);
        }
    }

    /** Seven bits a byte, lowest first; the high bit says more follow. */
    private void putLength(int value) {
        room(5);
        while ((value & ~0x7F) != 0) {
            bytes[length++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        bytes[length++] = (byte) value;
    }

    private void put(byte tag) {
        room(1);
        bytes[length++] = tag;
    }

    private void room(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }

    private static final class Reader {

        private final byte[] bytes;
        private int at;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        Object field() {
            byte tag = bytes[at++];
            return switch (tag) {
                case NULL -> null;
                case STRING -> string();
                case TRUE -> Boolean.TRUE;
                case FALSE -> Boolean.FALSE;
                case LONG -> number();
                case STRINGS -> {
                    String[] texts = new String[length()];
                    for (int i = 0; i < texts.length; i++) {
                        texts[i] = (String) field();
                    }
                    yield texts;
                }
                default -> throw new IllegalStateException("not packed fields: tag " + tag + " at byte " + (at - 1));
            };
        }

        private String string() {
            int size = length();
            String text = new String(bytes, at, size, StandardCharsets.UTF_8);
            at += size;
            return text;
        }

        private long number() {
            long number = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                number = number << 8 | bytes[at++] & 0xFF;
            }
            return number;
        }

        private int length() {
            int value = 0;
            for (int shift = 0; ; shift += 7) {
                byte next = bytes[at++];
                value |= (next & 0x7F) << shift;
                if (next >= 0) {
                    return value;
                }
            }
        }
    }
}
