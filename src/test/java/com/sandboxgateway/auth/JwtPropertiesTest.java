package com.sandboxgateway.auth;

import static com.sandboxgateway.support.Settings.assertRefused;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class JwtPropertiesTest {

    private static final Duration SKEW = Duration.ofSeconds(30);

    @Test
    void shouldRefuseANegativeSkewAndJwksTimesOfZero() {
        assertRefused(() -> new JwtProperties(List.of(), Duration.ofSeconds(-1), Duration.ofMinutes(5), SKEW), "gateway.auth.jwt.clock-skew",
                "PT-1S");
        assertRefused(() -> new JwtProperties(List.of(), SKEW, Duration.ZERO, SKEW), "gateway.auth.jwt.jwks-cache-ttl", "PT0S");
        assertRefused(() -> new JwtProperties(List.of(), SKEW, Duration.ofMinutes(5), Duration.ZERO),
                "gateway.auth.jwt.jwks-min-refresh-interval", "PT0S");
    }
}
