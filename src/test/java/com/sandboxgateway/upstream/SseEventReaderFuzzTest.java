package com.sandboxgateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Event streams from fuzzed bytes, arriving in fuzzed read sizes: the events' raw bytes put together
 * are the stream exactly (relaying changes nothing), only the last event may be incomplete, no event
 * exceeds the cap, and the only refusal is the over-size one. Replays {@code SseEventReaderFuzzTestInputs/}
 * in every build; {@code JAZZER_FUZZ=1} fuzzes (README, Fuzzing).
 */
class SseEventReaderFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void eventsRelayTheStreamExactly(FuzzedDataProvider data) throws IOException {
        int maxEventBytes = data.consumeInt(1, 512);
        int readSize = data.consumeInt(1, 64);
        byte[] stream = data.consumeRemainingAsBytes();
        SseEventReader reader = new SseEventReader(new Trickle(stream, readSize), maxEventBytes);
        ByteArrayOutputStream relayed = new ByteArrayOutputStream();
        boolean incomplete = false;
        try {
            for (SseEvent event = reader.next(); event != null; event = reader.next()) {
                assertThat(incomplete).as("an incomplete event is the last").isFalse();
                assertThat(event.raw().length).isBetween(1, maxEventBytes);
                incomplete = !event.complete();
                relayed.writeBytes(event.raw());
            }
        } catch (IOException tooLarge) {
            assertThat(tooLarge).hasMessageContaining("larger than " + maxEventBytes);
            return;
        }
        assertThat(relayed.toByteArray()).isEqualTo(stream);
    }

    /** Hands out at most {@code size} bytes per read, as a network would. */
    private static final class Trickle extends InputStream {
        private final ByteArrayInputStream in;
        private final int size;

        Trickle(byte[] bytes, int size) {
            this.in = new ByteArrayInputStream(bytes);
            this.size = size;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] target, int offset, int length) {
            return in.read(target, offset, Math.min(length, size));
        }
    }
}
