package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.ownership.OwnedObject;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.support.Audited;
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
    AuditTrail auditTrail;

    @Autowired
    OwnershipStore owners;

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
        CountDownLatch upstreamCutOff = new CountDownLatch(1);
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            try {
                send(out, created(response));
                send(out, callAdded(call, container));
                sendUntilCutOff(out, 2);
            } catch (IOException | InterruptedException e) {
                upstreamCutOff.countDown();
            }
        });

        try (StreamClient client = StreamClient.open(port)) {
            assertThat(client.nextEvent()).isEqualTo(created(response));
            assertThat(client.nextEvent()).isEqualTo(callAdded(call, container));
        }

        // The call's and its container's rows waited for the stream's next settling; the stream ended first, and they
        // were written as it ended.
        assertThat(await(upstreamCutOff)).as("the upstream connection was dropped").isTrue();
        for (String id : List.of(response, call, container)) {
            assertThat(ownerOf(id)).as("the owner of %s", id).isEqualTo("alice");
        }
    }

    @Test
    void shouldAuditTheCodeOfACallAStreamShowedRunningWhenTheUpstreamBreaksOff() throws Exception {
        String call = "ci_broken" + System.nanoTime();
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            send(out, created("resp_broken" + System.nanoTime()));
            send(out, callAdded(call, "cntr_broken" + System.nanoTime()));
            send(out, codeDone(call, "import os\nprint(os.listdir('/mnt/data'))"));
            send(out, interpreting(call));
        });

        try (StreamClient client = StreamClient.open(port)) {
            while (!client.nextEvent().contains("\"code\":\"upstream_error\"")) {
                // the events up to the error that ends the stream
            }
        }

        AuditRecord record = auditRecordOf(call);
        assertThat(record).as("the audit record of %s", call).isNotNull();
        assertThat(record.code()).isEqualTo("import os\nprint(os.listdir('/mnt/data'))");
        assertThat(record.status()).isEqualTo("interpreting");
        assertThat(record.outputs()).isNull();
        assertThat(record.details()).contains("\"end_unseen\"");
    }

    @Test
    void shouldAuditTheCodeOfACallAStreamShowedRunningWhenTheClientWentAway() throws Exception {
        String call = "ci_left" + System.nanoTime();
        CountDownLatch upstreamCutOff = new CountDownLatch(1);
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            try {
                send(out, created("resp_left" + System.nanoTime()));
                send(out, callAdded(call, "cntr_left" + System.nanoTime()));
                send(out, codeDone(call, "print(1)"));
                sendUntilCutOff(out, 3);
            } catch (IOException | InterruptedException e) {
                upstreamCutOff.countDown();
            }
        });

        try (StreamClient client = StreamClient.open(port)) {
            while (!client.nextEvent().contains(OpenAiFormat.CODE_DONE)) {
                // the events up to the call's code
            }
        }

        assertThat(await(upstreamCutOff)).as("the upstream connection was dropped").isTrue();
        AuditRecord record = auditRecordOf(call);
        assertThat(record).as("the audit record of %s", call).isNotNull();
        assertThat(record.code()).isEqualTo("print(1)");
        assertThat(record.status()).isEqualTo("in_progress");
    }

    @Test
    void shouldNotAuditACallWhoseCodeAStreamNeverShowedWhole() throws Exception {
        String response = "resp_partial" + System.nanoTime();
        String call = "ci_partial" + System.nanoTime();
        ScriptedUpstream.answerWith(exchange -> {
            OutputStream out = startStream(exchange);
            send(out, created(response));
            send(out, callAdded(call, "cntr_partial" + System.nanoTime()));
            send(out, "event: response.code_interpreter_call_code.delta\ndata: {\"type\":\"response.code_interpreter_call_code.delta\","
                    + "\"sequence_number\":2,\"output_index\":0,\"item_id\":\"" + call + "\",\"delta\":\"import o\"}\n\n");
        });

        try (StreamClient client = StreamClient.open(port)) {
            while (!client.nextEvent().contains("\"code\":\"upstream_error\"")) {
                // the events up to the error that ends the stream
            }
        }

        // The model was still writing the code: nothing ran. The exchange has ended once its response is owned.
        assertThat(ownerOf(response)).isEqualTo("alice");
        assertThat(Audited.records(auditTrail, record -> call.equals(record.callId()))).isEmpty();
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

    /** The audit record of the call {@code callId}, once the exchange that showed it has ended (null if none by then). */
    private AuditRecord auditRecordOf(String callId) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            List<AuditRecord> records = Audited.records(auditTrail, record -> callId.equals(record.callId()));
            if (!records.isEmpty()) {
                return records.getFirst();
            }
            Thread.sleep(50);
        }
        return null;
    }

    /** The owner the store records for {@code id}, once the exchange that showed it has ended (null if none by then). */
    private String ownerOf(String id) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            Optional<OwnedObject> owner = owners.find(id);
            if (owner.isPresent()) {
                return owner.get().ownerUser();
            }
            Thread.sleep(50);
        }
        return null;
    }

    private static String created(String response) {
        return "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\""
                + response + "\",\"object\":\"response\",\"status\":\"in_progress\",\"model\":\"gpt-4.1\",\"output\":[]}}\n\n";
    }

    private static String callAdded(String call, String container) {
        return "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,"
                + "\"output_index\":0,\"item\":{\"type\":\"code_interpreter_call\",\"id\":\"" + call + "\",\"status\":\"in_progress\","
                + "\"code\":\"\",\"container_id\":\"" + container + "\",\"outputs\":null}}\n\n";
    }

    private static String codeDone(String call, String code) {
        return "event: " + OpenAiFormat.CODE_DONE + "\ndata: {\"type\":\"" + OpenAiFormat.CODE_DONE + "\",\"sequence_number\":2,"
                + "\"output_index\":0,\"item_id\":\"" + call + "\",\"code\":\"" + code.replace("\n", "\\n") + "\"}\n\n";
    }

    private static String interpreting(String call) {
        return "event: " + OpenAiFormat.CODE_INTERPRETING + "\ndata: {\"type\":\"" + OpenAiFormat.CODE_INTERPRETING
                + "\",\"sequence_number\":3,\"output_index\":0,\"item_id\":\"" + call + "\"}\n\n";
    }

    /** Sends text deltas every 10 ms, numbered from {@code sequence}, until the gateway drops the connection. */
    private static void sendUntilCutOff(OutputStream out, int sequence) throws IOException, InterruptedException {
        for (int i = sequence; i < 10_000; i++) {
            send(out, event(i, "response.output_text.delta"));
            Thread.sleep(10);
        }
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
