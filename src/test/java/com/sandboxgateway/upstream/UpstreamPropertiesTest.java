package com.sandboxgateway.upstream;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class UpstreamPropertiesTest {

    private static final URI OPENAI = URI.create("https://api.openai.com");
    private static final UpstreamProperties.Retry RETRY = new UpstreamProperties.Retry(3, Duration.ofMillis(200), Duration.ofSeconds(10));

    @Test
    void shouldAcceptTheDefaults() {
        UpstreamProperties properties = upstream("sk-org", Duration.ofSeconds(5), 1000, true);

        assertThat(properties.useSimulator()).isFalse();
    }

    @Test
    void shouldRefuseAZeroTimeoutAndNoConnections() {
        assertRefused(() -> upstream("sk-org", Duration.ZERO, 1000, true), "gateway.upstream.connect-timeout", "PT0S");
        assertRefused(() -> upstream("sk-org", Duration.ofSeconds(5), 0, true), "gateway.upstream.max-connections", "0");
    }

    @Test
    void shouldRefuseAMissingKeyWhereTheSimulatorIsNotAllowed() {
        assertRefused(() -> upstream("", Duration.ofSeconds(5), 1000, false), "gateway.upstream.api-key", null);
    }

    @Test
    void shouldRefuseRetriesThatCannotRun() {
        assertRefused(() -> new UpstreamProperties.Retry(0, Duration.ofMillis(200), Duration.ofSeconds(10)),
                "gateway.upstream.retry.max-attempts", "0");
        assertRefused(() -> new UpstreamProperties.Retry(3, Duration.ofMillis(-1), Duration.ofSeconds(10)),
                "gateway.upstream.retry.initial-backoff", "PT-0.001S");
        assertRefused(() -> new UpstreamProperties.Retry(3, Duration.ofMillis(200), Duration.ofSeconds(-1)),
                "gateway.upstream.retry.max-retry-after", "PT-1S");
    }

    private static UpstreamProperties upstream(String key, Duration connectTimeout, int maxConnections, boolean allowSimulator) {
        return new UpstreamProperties(OPENAI, key, connectTimeout, Duration.ofMinutes(10), Duration.ofMinutes(5), maxConnections,
                RETRY, allowSimulator);
    }
}
