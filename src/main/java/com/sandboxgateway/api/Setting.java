package com.sandboxgateway.api;

import java.time.Duration;

import org.springframework.util.unit.DataSize;

/**
 * The checks the configuration records run in their compact constructors: each refuses a value that makes no sense
 * with an {@link InvalidSettingException} naming the key, the value and the fix, so the start stops with Spring Boot's
 * "APPLICATION FAILED TO START" block instead of a gateway that misbehaves later. Never used for secrets (it shows the value).
 */
public final class Setting {

    private Setting() {
    }

    /** {@code value}, refused unless it is at least {@code minimum}. */
    public static int atLeast(int minimum, int value, String key, String action) {
        if (value < minimum) {
            throw new InvalidSettingException(key, Integer.toString(value), "it must be at least " + minimum, action);
        }
        return value;
    }

    /** {@code value}, refused when it is zero or negative. */
    public static Duration positive(Duration value, String key, String action) {
        if (value.isNegative() || value.isZero()) {
            throw new InvalidSettingException(key, value.toString(), "it must be longer than zero", action);
        }
        return value;
    }

    /** {@code value}, refused when it is negative. */
    public static Duration notNegative(Duration value, String key, String action) {
        if (value.isNegative()) {
            throw new InvalidSettingException(key, value.toString(), "it must not be negative", action);
        }
        return value;
    }

    /** {@code value}, refused when it is zero or negative. */
    public static DataSize positive(DataSize value, String key, String action) {
        if (value.toBytes() <= 0) {
            throw new InvalidSettingException(key, value.toString(), "it must be larger than zero", action);
        }
        return value;
    }
}
