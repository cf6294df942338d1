package com.sandboxgateway.console;

import static com.sandboxgateway.support.Settings.assertRefused;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ConsolePropertiesTest {

    @Test
    void shouldRefuseSessionsThatEndAtOnceAndAQueueThatReadsNothing() {
        assertRefused(() -> new ConsoleProperties(Duration.ZERO, Duration.ofHours(12), 5000), "gateway.console.session-idle-timeout", "PT0S");
        assertRefused(() -> new ConsoleProperties(Duration.ofMinutes(30), Duration.ofHours(-1), 5000), "gateway.console.session-max-age",
                "PT-1H");
        assertRefused(() -> new ConsoleProperties(Duration.ofMinutes(30), Duration.ofHours(12), 0), "gateway.console.queue-scan-limit", "0");
    }
}
