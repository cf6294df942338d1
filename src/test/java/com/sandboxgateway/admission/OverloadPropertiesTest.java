package com.sandboxgateway.admission;

import static com.sandboxgateway.support.Settings.assertRefused;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class OverloadPropertiesTest {

    private static final Duration WAIT = Duration.ofMillis(100);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    @Test
    void shouldRefuseLimitsThatAdmitNothingOrCannotBeSaid() {
        assertRefused(() -> new OverloadProperties(true, 0, 512, WAIT, RETRY_AFTER), "gateway.overload.max-in-flight", "0");
        assertRefused(() -> new OverloadProperties(true, 512, -1, WAIT, RETRY_AFTER), "gateway.overload.max-waiting", "-1");
        assertRefused(() -> new OverloadProperties(true, 512, 512, Duration.ofMillis(-1), RETRY_AFTER), "gateway.overload.max-queue-wait",
                "PT-0.001S");
        assertRefused(() -> new OverloadProperties(true, 512, 512, WAIT, Duration.ofMillis(500)), "gateway.overload.retry-after", "PT0.5S");
    }
}
