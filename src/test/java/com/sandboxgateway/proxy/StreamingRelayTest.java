package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.support.ScriptedUpstream;
import com.sandboxgateway.support.ScriptedUpstreamIntegrationTest;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sun.net.httpserver.HttpExchange;

class StreamingRelayTest extends ScriptedUpstreamIntegrationTest {

    private static final String CREATED = event(0, "response.created");
    private static final String IN_PROGRESS = event(1, "response.in_progress");
    private static final String COMPLETED = event(2, "response.completed");

    @Autowired
    UpstreamClient upstream;

    @Autowired
    JdbcClient jdbc;

    @Test
    void shouldRelayEachEventBeforeTheUpstreamSendsTheNext() throws Exception {
        CountDownLatch clientSawFirstEvent = new CountDownLatch(1);
        AtomicBoolean relayedBeforeNext = new AtomicBoolean();
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            send(out, CREATED);
            relayedBeforeNext.set(await(clientSawFirstEvent));
            send(out, IN_PROGRESS);
            send(out, COMPLETED);
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(CREATED);
            clientSawFirstEvent.countDown();
            assertThat(client.nextEvent()).isEqualTo(IN_PROGRESS);
            assertThat(client.nextEvent()).isEqualTo(COMPLETED);
            assertThat(client.nextEvent()).isNull();
        }
        assertThat(relayedBeforeNext).isTrue();
    }

    @Test
    void shouldRelayEventsSentTogetherWithoutHoldingOneBackForTheNext() throws Exception {
        CountDownLatch clientSawSecondEvent = new CountDownLatch(1);
        AtomicBoolean relayedBeforeNext = new AtomicBoolean();
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            send(out, CREATED + IN_PROGRESS);
            relayedBeforeNext.set(await(clientSawSecondEvent));
            send(out, COMPLETED);
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(CREATED);
            assertThat(client.nextEvent()).isEqualTo(IN_PROGRESS);
            clientSawSecondEvent.countDown();
            assertThat(client.nextEvent()).isEqualTo(COMPLETED);
            assertThat(client.nextEvent()).isNull();
        }
        assertThat(relayedBeforeNext).as("both events relayed while the upstream waited").isTrue();
    }

    @Test
    void shouldCancelTheUpstreamCallWhenTheClientGoesAway() throws Exception {
        CountDownLatch upstreamCutOff = new CountDownLatch(1);
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            try {
                for (int i = 0; i < 10_000; i++) {
                    send(out, i == 0 ? CREATED : event(i, "response.output_text.delta"));
                    Thread.sleep(10);
                }
            } catch (IOException | InterruptedException e) {
                upstreamCutOff.countDown();
            }
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(CREATED);
        }

        assertThat(await(upstreamCutOff)).as("the upstream connection was dropped").isTrue();
        assertThat(awaitPoolDrained()).as("no upstream connection stays leased").isTrue();
    }

    @Test
    void shouldRecordTheOwnerOfWhatAStreamShowedBeforeTheClientWentAway() throws Exception {
        String response = "resp_gone" + System.nanoTime();
        String call = "ci_gone" + System.nanoTime();
        String container = "cntr_gone" + System.nanoTime();
        String created = "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\""
                + response + "\",\"object\":\"response\",\"status\":\"in_progress\",\"model\":\"gpt-4.1\",\"output\":[]}}\n\n";
        String callAdded = "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,"
                + "\"output_index\":0,\"item\":{\"type\":\"code_interpreter_call\",\"id\":\"" + call + "\",\"status\":\"in_progress\","
                + "\"code\":\"\",\"container_id\":\"" + container + "\",\"outputs\":null}}\n\n";
        CountDownLatch upstreamCutOff = new CountDownLatch(1);
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            try {
                send(out, created);
                send(out, callAdded);
                for (int i = 2; i < 10_000; i++) {
                    send(out, event(i, "response.code_interpreter_call_code.delta"));
                    Thread.sleep(10);
                }
            } catch (IOException | InterruptedException e) {
                upstreamCutOff.countDown();
            }
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(created);
            assertThat(client.nextEvent()).isEqualTo(callAdded);
        }

        // The call's and its container's rows waited for the stream's next settling; the stream ended first, and they
        // were written as it ended.
        assertThat(await(upstreamCutOff)).as("the upstream connection was dropped").isTrue();
        for (String id : List.of(response, call, container)) {
            assertThat(ownerOf(id)).as("the owner of %s", id).isEqualTo("alice");
        }
    }

    @Test
    void shouldEndASilentStreamWithAnErrorEvent() throws Exception {
        CountDownLatch testDone = new CountDownLatch(1);
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            send(out, CREATED);
            await(testDone);
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(CREATED);
            String error = client.nextEvent();
            assertThat(error).startsWith("event: error\ndata: {\"type\":\"error\",\"code\":\"upstream_timeout\"")
                    .contains("\"sequence_number\":1");
            assertThat(client.nextEvent()).isNull();
        } finally {
            testDone.countDown();
        }
    }

    @Test
    void shouldEndATruncatedStreamWithAnErrorEvent() throws Exception {
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            send(out, CREATED);
            send(out, IN_PROGRESS);
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(CREATED);
            assertThat(client.nextEvent()).isEqualTo(IN_PROGRESS);
            assertThat(client.nextEvent()).contains("\"code\":\"upstream_error\"").contains("\"sequence_number\":2");
            assertThat(client.nextEvent()).isNull();
        }
    }

    private boolean awaitPoolDrained() throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (upstream.poolStats().getLeased() == 0) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** The owner the store records for {@code id}, once the exchange that showed it has ended (null if none by then). */
    private String ownerOf(String id) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            List<String> owners = jdbc.sql("SELECT owner_user FROM owned_object WHERE id = :id").param("id", id)
                    .query(String.class).list();
            if (!owners.isEmpty()) {
                return owners.getFirst();
            }
            Thread.sleep(50);
        }
        return null;
    }

    private static String event(int sequence, String type) {
        return "event: " + type + "\ndata: {\"type\":\"" + type + "\",\"sequence_number\":" + sequence + "}\n\n";
    }

    private static OutputStream startStream(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
        exchange.sendResponseHeaders(200, 0);
        return exchange.getResponseBody();
    }

    private static void send(OutputStream out, String event) throws IOException {
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A client on a bare socket, so the test controls exactly when the connection closes. */
    private record StreamClient(Socket socket, BufferedReader in) implements AutoCloseable {

        static StreamClient open(int port) throws IOException {
            Socket socket = new Socket("127.0.0.1", port);
            byte[] body = "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
            String head = "POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ALICE_KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while (!(line = in.readLine()).isEmpty()) {
                if (line.startsWith("HTTP/1.1")) {
                    assertThat(line).startsWith("HTTP/1.1 200");
                }
            }
            return new StreamClient(socket, in);
        }

        /** The next event with its blank line, decoded from the chunked body; null at the end. */
        String nextEvent() throws IOException {
            StringBuilder event = new StringBuilder();
            while (true) {
                String sizeLine = in.readLine();
                if (sizeLine == null || sizeLine.isEmpty() && event.isEmpty()) {
                    if (sizeLine == null) {
                        return null;
                    }
                    continue;
                }
                int size = Integer.parseInt(sizeLine.strip(), 16);
                if (size == 0) {
                    return event.isEmpty() ? null : event.toString();
                }
                char[] chunk = new char[size];
                int read = 0;
                while (read < size) {
                    read += in.read(chunk, read, size - read);
                }
                in.readLine();
                event.append(chunk);
                if (event.toString().endsWith("\n\n")) {
                    return event.toString();
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
