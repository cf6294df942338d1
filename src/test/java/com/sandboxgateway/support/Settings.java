package com.sandboxgateway.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import com.sandboxgateway.api.InvalidSettingException;

/** Assertions for the settings a configuration record refuses as it is built. */
public final class Settings {

    private Settings() {
    }

    /** Asserts that {@code building} stops the start naming {@code key} and {@code value} and saying what to do. */
    public static void assertRefused(ThrowingCallable building, String key, String value) {
        assertThatThrownBy(building).isInstanceOfSatisfying(InvalidSettingException.class, refusal -> {
            assertThat(refusal.key()).isEqualTo(key);
            assertThat(refusal.value()).isEqualTo(value);
            assertThat(refusal.action()).isNotBlank();
        });
    }
}
