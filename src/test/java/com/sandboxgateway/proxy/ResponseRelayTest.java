package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.OnRoutes;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.policy.Settlement;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.databind.json.JsonMapper;

class ResponseRelayTest {

    private static final String STREAM = event(0, "response.created") + event(1, "response.output_item.added")
            + event(2, "response.output_item.done") + event(3, "response.completed");

    private final JsonMapper json = JsonMapper.builder().build();
    private final ResponseRelay relay = new ResponseRelay(json, new OpenAiErrors(json), 1 << 20);

    @Test
    void shouldShowEachEventToTheInspectorsBeforeRelayingIt() throws Exception {
        List<String> seen = new ArrayList<>();
        MockHttpServletResponse client = new MockHttpServletResponse();
        ResponseInspector recorder = (exchange, answer) ->
                seen.add(answer.type() + " when the client had " + count(client) + " events");

        relay.relay(exchange(), stream(STREAM), chainOf(recorder), client);

        assertThat(seen).containsExactly("response.created when the client had 0 events",
                "response.output_item.added when the client had 1 events", "response.output_item.done when the client had 2 events",
                "response.completed when the client had 3 events");
        assertThat(client.getContentAsString()).isEqualTo(STREAM);
    }

    @Test
    void shouldFlushTheFirstEventAloneAndTheEventsThatArrivedTogetherAtOnce() throws Exception {
        List<String> flushed = new ArrayList<>();
        List<String> settledAfter = new ArrayList<>();
        MockHttpServletResponse client = new MockHttpServletResponse();
        HttpServletResponse flushes = new HttpServletResponseWrapper(client) {
            @Override
            public ServletOutputStream getOutputStream() throws IOException {
                ServletOutputStream out = client.getOutputStream();
                return new ServletOutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) throws IOException {
                        out.write(bytes, offset, length);
                    }

                    @Override
                    public void flush() throws IOException {
                        flushed.add(count(client) + " events");
                        out.flush();
                    }

                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                    }
                };
            }
        };
        ResponseInspector bookkeeping = (exchange, answer) -> exchange.settlement().write(
                new Noted(Settlement.Timing.AFTER_RELAY, () -> settledAfter.add(answer.type() + " when " + flushed.size()
                        + " flushes")));

        relay.relay(exchange(), stream(STREAM), chainOf(bookkeeping), flushes);

        assertThat(flushed).as("the first event, then the other three, read together").containsExactly("1 events", "4 events");
        assertThat(settledAfter).as("what each staged, settled once it was flushed").containsExactly("response.created when 1 flushes",
                "response.output_item.added when 2 flushes", "response.output_item.done when 2 flushes", "response.completed when 2 flushes");
        assertThat(client.getContentAsString()).isEqualTo(STREAM);
    }

    @Test
    void shouldEndTheStreamInsteadOfRelayingAnEventItsInspectorRefused() throws Exception {
        MockHttpServletResponse client = new MockHttpServletResponse();
        ResponseInspector failingAudit = (exchange, answer) -> {
            if (answer.type().equals("response.output_item.done")) {
                throw new GatewayException(ErrorCode.AUDIT_UNAVAILABLE, "audit store and spool unavailable");
            }
        };

        relay.relay(exchange(), stream(STREAM), chainOf(failingAudit), client);

        String relayed = client.getContentAsString();
        assertThat(relayed).startsWith(event(0, "response.created") + event(1, "response.output_item.added"));
        assertThat(relayed).doesNotContain("response.output_item.done").doesNotContain("response.completed");
        assertThat(relayed).endsWith("event: error\ndata: {\"type\":\"error\",\"code\":\"audit_unavailable\","
                + "\"message\":\"audit store and spool unavailable\",\"param\":null,\"sequence_number\":2}\n\n");
    }

    @Test
    void shouldCommitAnAuditRecordBeforeItsEventIsRelayedAndBookkeepingAfter() throws Exception {
        List<String> committed = new ArrayList<>();
        MockHttpServletResponse client = new MockHttpServletResponse();
        ResponseInspector stager = (exchange, answer) -> {
            boolean audit = answer.type().equals("response.output_item.done");
            Settlement.Timing timing = audit ? Settlement.Timing.BEFORE_RELAY : Settlement.Timing.AFTER_RELAY;
            exchange.settlement().write(new Noted(timing, () -> committed.add((audit ? "audit record of " : "owner rows of ")
                    + answer.type() + " when the client had " + count(client) + " events")));
        };

        relay.relay(exchange(), stream(STREAM), chainOf(stager), client);

        assertThat(committed).containsExactly("owner rows of response.created when the client had 1 events",
                "owner rows of response.output_item.added when the client had 2 events",
                "audit record of response.output_item.done when the client had 2 events",
                "owner rows of response.completed when the client had 4 events");
        assertThat(client.getContentAsString()).isEqualTo(STREAM);
    }

    @Test
    void shouldLeaveBookkeepingThatCanWaitToTheNextSettlingHoweverApartTheEventsArrive() throws Exception {
        List<String> committed = new ArrayList<>();
        MockHttpServletResponse client = new MockHttpServletResponse();
        ResponseInspector stager = (exchange, answer) -> {
            Settlement.Timing timing = switch (answer.type()) {
                case "response.output_item.added" -> Settlement.Timing.WITH_NEXT;
                case "response.output_item.done" -> Settlement.Timing.BEFORE_RELAY;
                case "response.code_interpreter_call.interpreting" -> null;
                default -> Settlement.Timing.AFTER_RELAY;
            };
            if (timing != null) {
                exchange.settlement().write(new Noted(timing, () -> committed.add(timing + " of " + answer.type()
                        + " when the client had " + count(client) + " events")));
            }
        };
        List<String> events = List.of(event(0, "response.created"), event(1, "response.output_item.added"),
                event(2, "response.code_interpreter_call.interpreting"), event(3, "response.output_item.done"),
                event(4, "response.completed"));
        // Each event arrives on its own, so each is flushed (and what is due then settled) before the next is read.
        InputStream apart = new SequenceInputStream(Collections.enumeration(
                events.stream().map(ResponseRelayTest::bytes).toList()));

        relay.relay(exchange(), stream(apart), chainOf(stager), client);

        assertThat(committed).containsExactly("AFTER_RELAY of response.created when the client had 1 events",
                "WITH_NEXT of response.output_item.added when the client had 3 events",
                "BEFORE_RELAY of response.output_item.done when the client had 3 events",
                "AFTER_RELAY of response.completed when the client had 5 events");
        assertThat(client.getContentAsString()).isEqualTo(String.join("", events));
    }

    @Test
    void shouldEndTheStreamWithAnErrorWhenTheBookkeepingOfARelayedEventFails() throws Exception {
        MockHttpServletResponse client = new MockHttpServletResponse();
        ResponseInspector failingRows = (exchange, answer) -> {
            if (answer.type().equals("response.output_item.added")) {
                exchange.settlement().write(new Noted(Settlement.Timing.AFTER_RELAY, () -> {
                    throw new GatewayException(ErrorCode.AUDIT_UNAVAILABLE, "the rows could be written nowhere");
                }));
            }
        };

        // The upstream sends the four events at once, then four more: the rows are written once the first four are
        // flushed, and the stream ends there.
        relay.relay(exchange(), stream(new SequenceInputStream(bytes(STREAM), bytes(STREAM))), chainOf(failingRows), client);

        assertThat(client.getContentAsString()).isEqualTo(STREAM
                + "event: error\ndata: {\"type\":\"error\",\"code\":\"audit_unavailable\","
                + "\"message\":\"the rows could be written nowhere\",\"param\":null,\"sequence_number\":4}\n\n");
    }

    /** A write that runs {@code made} as it is written and again as its fallback, so a throwing one fails both ways. */
    private record Noted(Settlement.Timing timing, Runnable made) implements Settlement.Write {

        @Override
        public boolean write() {
            made.run();
            return true;
        }

        @Override
        public void failed(RuntimeException cause) {
            made.run();
        }
    }

    private static PolicyChain chainOf(ResponseInspector inspector) {
        return new PolicyChain(List.of(), List.of(OnRoutes.always(inspector)), List.of(), ChainObserver.NONE,
                Exchanges.WITHOUT_TRANSACTIONS);
    }

    private static int count(MockHttpServletResponse client) {
        return client.getContentAsByteArray().length == 0 ? 0
                : new String(client.getContentAsByteArray(), StandardCharsets.UTF_8).split("\n\n").length;
    }

    private static Exchange exchange() {
        return new Exchange("gwreq_1", new Principal("alice", "analytics", java.util.Set.of("user")),
                new RouteMatch(Route.RESPONSES_CREATE, Map.of()), "/v1/responses", null, null, null, new RequestBody.None());
    }

    private static UpstreamResponse stream(String body) {
        return stream(bytes(body));
    }

    /** A stream whose reads return what {@code body}'s reads return: one event or several at a time. */
    private static UpstreamResponse stream(InputStream body) {
        BasicClassicHttpResponse response = new BasicClassicHttpResponse(200);
        response.addHeader("Content-Type", "text/event-stream; charset=utf-8");
        response.setEntity(new InputStreamEntity(body, ContentType.parse("text/event-stream; charset=utf-8")));
        return new UpstreamResponse(new HttpPost("/v1/responses"), response);
    }

    private static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String event(int sequence, String type) {
        return "event: " + type + "\ndata: {\"type\":\"" + type + "\",\"sequence_number\":" + sequence + "}\n\n";
    }
}
