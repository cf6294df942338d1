package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.node.ObjectNode;

import com.sandboxgateway.support.MovableClock;

/** What the simulator keeps stays bounded, and time-dependent states follow the clock. */
class StorageTest {

    @Test
    void shouldForgetTheOldestObjectsBeyondTheCapWithTheirBytes() throws IOException {
        try (Storage storage = new Storage(Clock.systemUTC())) {
            String first = null;
            for (int i = 0; i <= Storage.MAX_OBJECTS; i++) {
                ObjectNode file = Call.JSON.createObjectNode().put("id", Storage.fileId()).put("purpose", "user_data");
                storage.putFile(file, storage.read(new ByteArrayInputStream(new byte[] {1, 2, 3})));
                first = first == null ? file.path("id").asString() : first;
            }

            String oldest = first;
            assertThat(storage.files(null)).hasSize(Storage.MAX_OBJECTS);
            assertThatThrownBy(() -> storage.file(oldest)).isInstanceOf(ApiError.class);
        }
    }

    @Test
    void shouldExpireAContainerIdleLongerThanItsMinutesAndAFilePastItsExpiry() throws IOException {
        MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
        try (Storage storage = new Storage(clock)) {
            ObjectNode container = Call.JSON.createObjectNode().put("id", "cntr_idle").put("last_active_at", storage.now());
            container.putObject("expires_after").put("anchor", "last_active_at").put("minutes", 20);
            storage.putContainer(container);
            ObjectNode file = Call.JSON.createObjectNode().put("id", "file-short").put("expires_at", storage.now() + 60);
            storage.putFile(file, storage.read(new ByteArrayInputStream(new byte[0])));

            clock.advance(Duration.ofMinutes(10));
            storage.touch("cntr_idle");
            clock.advance(Duration.ofMinutes(15));
            assertThat(storage.container("cntr_idle").path("status").isMissingNode()).as("active 15 min ago").isTrue();
            clock.advance(Duration.ofMinutes(6));

            assertThat(storage.container("cntr_idle").path("status").asString()).isEqualTo("expired");
            assertThatThrownBy(() -> storage.file("file-short")).isInstanceOf(ApiError.class);
        }
    }

    /** A clock a test moves by hand. */
}
