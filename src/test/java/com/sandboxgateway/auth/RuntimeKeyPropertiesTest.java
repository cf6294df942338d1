package com.sandboxgateway.auth;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class RuntimeKeyPropertiesTest {

    @Test
    void shouldRefuseNegativeDurations() {
        assertRefused(() -> new RuntimeKeyProperties(Duration.ofSeconds(-5), Duration.ofHours(24)), "gateway.auth.runtime-keys.cache-ttl",
                "PT-5S");
        assertRefused(() -> new RuntimeKeyProperties(Duration.ofSeconds(5), Duration.ofHours(-1)),
                "gateway.auth.runtime-keys.rotation-grace", "PT-1H");
    }

    @Test
    void shouldAcceptZeroAsNoCacheAndNoGrace() {
        assertThat(new RuntimeKeyProperties(Duration.ZERO, Duration.ZERO).cacheTtl()).isZero();
    }
}
