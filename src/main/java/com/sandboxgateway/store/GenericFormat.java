package com.sandboxgateway.store;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;

import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

/**
 * Keys or values of one type, written as H2's generic type ({@link ObjectDataType}, a map's type unless told otherwise)
 * writes them: the same bytes, so a map keeps reading what it held, but keys are compared as that type. The generic type
 * works out the type of both keys on every comparison, and a put or a get compares a key a dozen times or more.
 *
 * @param <K> the type
 */
public final class GenericFormat<K extends Comparable<K>> extends BasicDataType<K> {

    public static final GenericFormat<Long> LONGS = new GenericFormat<>(Long.class);
    public static final GenericFormat<String> STRINGS = new GenericFormat<>(String.class);

    private final Class<K> type;
    private final ObjectDataType format = new ObjectDataType();

    private GenericFormat(Class<K> type) {
        this.type = type;
    }

    @Override
    public int compare(K a, K b) {
        return a.compareTo(b);
    }

    /** As {@link BasicDataType#binarySearch}, with the keys compared in place. */
    @Override
    public int binarySearch(K key, Object storage, int size, int initialGuess) {
        K[] keys = cast(storage);
        int low = 0;
        int high = size - 1;
        int x = initialGuess - 1;
        if (x < 0 || x > high) {
            x = high >>> 1;
        }
        while (low <= high) {
            int compare = key.compareTo(keys[x]);
            if (compare > 0) {
                low = x + 1;
            } else if (compare < 0) {
                high = x - 1;
            } else {
                return x;
            }
            x = (low + high) >>> 1;
        }
        return ~low;
    }

    @Override
    public int getMemory(K key) {
        return format.getMemory(key);
    }

    @Override
    public void write(WriteBuffer buffer, K key) {
        format.write(buffer, key);
    }

    @Override
    public K read(ByteBuffer buffer) {
        return type.cast(format.read(buffer));
    }

    @Override
    @SuppressWarnings("unchecked")
    public K[] createStorage(int size) {
        return (K[]) Array.newInstance(type, size);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GenericFormat<?> keys && keys.type == type;
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }
}
