package com.sandboxgateway.containers;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ReaperPropertiesTest {

    @Test
    void shouldRefuseAPassEveryZeroSeconds() {
        assertRefused(() -> new ReaperProperties(true, Duration.ZERO), "gateway.reaper.interval", "PT0S");
    }

    @Test
    void shouldAcceptAnInterval() {
        assertThat(new ReaperProperties(false, Duration.ofMinutes(1)).interval()).hasMinutes(1);
    }
}
