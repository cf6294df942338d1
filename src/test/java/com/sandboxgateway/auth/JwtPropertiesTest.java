package com.sandboxgateway.auth;

import static com.sandboxgateway.support.Settings.assertRefused;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class JwtPropertiesTest {

    private static final Duration SKEW = Duration.ofSeconds(30);

    @Test
    void shouldRefuseAnIssuerWithoutIssuerUriOrAudiencesAndOneListedTwice() {
        assertRefused(() -> issuers(issuer(" ", List.of("gateway"))), "gateway.auth.jwt.issuers[0].issuer-uri", null);
        assertRefused(() -> issuers(issuer("https://idp.example", List.of())), "gateway.auth.jwt.issuers[0].audiences", null);
        assertRefused(() -> issuers(issuer("https://idp.example", List.of("a")), issuer("https://idp.example", List.of("b"))),
                "gateway.auth.jwt.issuers[1].issuer-uri", "https://idp.example");
    }

    @Test
    void shouldRefuseANegativeSkewAndJwksTimesOfZero() {
        assertRefused(() -> new JwtProperties(List.of(), Duration.ofSeconds(-1), Duration.ofMinutes(5), SKEW), "gateway.auth.jwt.clock-skew",
                "PT-1S");
        assertRefused(() -> new JwtProperties(List.of(), SKEW, Duration.ZERO, SKEW), "gateway.auth.jwt.jwks-cache-ttl", "PT0S");
        assertRefused(() -> new JwtProperties(List.of(), SKEW, Duration.ofMinutes(5), Duration.ZERO),
                "gateway.auth.jwt.jwks-min-refresh-interval", "PT0S");
    }

    private static JwtProperties issuers(JwtProperties.Issuer... issuers) {
        return new JwtProperties(List.of(issuers), SKEW, Duration.ofMinutes(5), SKEW);
    }

    private static JwtProperties.Issuer issuer(String issuerUri, List<String> audiences) {
        return new JwtProperties.Issuer(issuerUri, null, audiences, "sub", "team", "roles", null);
    }
}
