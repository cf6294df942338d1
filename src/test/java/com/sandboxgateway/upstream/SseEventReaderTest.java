package com.sandboxgateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.support.Trickle;

class SseEventReaderTest {

    private static final String TWO_EVENTS = "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0}\n\n"
            + "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":1}\n\n";

    @Test
    void shouldReadEventsWhateverTheReadBoundaries() throws IOException {
        for (int chunk = 1; chunk <= 7; chunk++) {
            List<SseEvent> events = readAll(new Trickle(TWO_EVENTS.getBytes(StandardCharsets.UTF_8), chunk));

            assertThat(events).extracting(SseEvent::event).containsExactly("response.created", "response.completed");
            assertThat(events.get(1).data()).isEqualTo("{\"type\":\"response.completed\",\"sequence_number\":1}");
            assertThat(raw(events)).isEqualTo(TWO_EVENTS);
        }
    }

    @Test
    void shouldJoinMultiLineDataAndKeepCommentsInTheRawBytes() throws IOException {
        String stream = ": keep-alive\n\nevent: x\ndata: first\ndata:second\ndata\n\n";

        List<SseEvent> events = readAll(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)));

        assertThat(events).hasSize(2);
        assertThat(events.get(0).data()).isNull();
        assertThat(events.get(1).data()).isEqualTo("first\nsecond\n");
        assertThat(raw(events)).isEqualTo(stream);
    }

    @Test
    void shouldAcceptCarriageReturnLineEndingsSplitAcrossReads() throws IOException {
        String stream = "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r";

        List<SseEvent> events = readAll(new Trickle(stream.getBytes(StandardCharsets.UTF_8), 1));

        assertThat(events).extracting(SseEvent::data).containsExactly("1", "2");
        assertThat(raw(events)).isEqualTo(stream);
    }

    @Test
    void shouldTellWhetherTheNextEventIsReadAlready() throws IOException {
        String stream = "event: a\r\ndata: 1\r\n\r\n: comment\n\nevent: b\ndata: 2\n";
        SseEventReader reader = new SseEventReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), 1 << 20);

        assertThat(reader.hasBufferedEvent()).as("nothing read yet").isFalse();
        assertThat(reader.next().data()).isEqualTo("1");
        assertThat(reader.hasBufferedEvent()).as("the comment, whole").isTrue();
        assertThat(reader.next().data()).isNull();
        assertThat(reader.hasBufferedEvent()).as("b, without its blank line").isFalse();
        assertThat(reader.next().complete()).isFalse();
    }

    @Test
    void shouldEndWithoutADoneSentinelAndFlagACutOffEvent() throws IOException {
        List<SseEvent> events = readAll(new ByteArrayInputStream("data: {\"a\":1}\n\ndata: {\"b\"".getBytes(StandardCharsets.UTF_8)));

        assertThat(events).hasSize(2);
        assertThat(events.get(0).complete()).isTrue();
        assertThat(events.get(1).complete()).isFalse();
        assertThat(events.get(1).data()).isEqualTo("{\"b\"");
    }

    @Test
    void shouldRecognizeTheDoneSentinelOfCompatibleServers() throws IOException {
        List<SseEvent> events = readAll(new ByteArrayInputStream("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8)));

        assertThat(events).singleElement().satisfies(event -> assertThat(event.isDoneSentinel()).isTrue());
    }

    @Test
    void shouldRefuseAnEventLargerThanTheLimit() {
        SseEventReader reader = new SseEventReader(new ByteArrayInputStream(("data: " + "x".repeat(100) + "\n\n").getBytes()), 64);

        assertThatThrownBy(reader::next).isInstanceOf(IOException.class).hasMessageContaining("64 bytes");
    }

    private static List<SseEvent> readAll(InputStream in) throws IOException {
        SseEventReader reader = new SseEventReader(in, 1 << 20);
        List<SseEvent> events = new ArrayList<>();
        for (SseEvent event = reader.next(); event != null; event = reader.next()) {
            events.add(event);
        }
        return events;
    }

    private static String raw(List<SseEvent> events) {
        StringBuilder all = new StringBuilder();
        events.forEach(event -> all.append(new String(event.raw(), StandardCharsets.UTF_8)));
        return all.toString();
    }
}
