package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.multipart.MultipartReader;
import com.sandboxgateway.support.ScriptedUpstream;
import com.sandboxgateway.support.ScriptedUpstreamIntegrationTest;

/**
 * Uploads are never held whole: the test JVM runs with a heap smaller than the upload (see the
 * surefire {@code argLine}), so this 1 GiB CSV can only pass if no layer keeps it in memory, while it
 * is sanitized on its way.
 */
class UploadStreamingTest extends ScriptedUpstreamIntegrationTest {

    private static final String HEADER = "order_id,customer_id,customer_ssn,amount\n";
    private static final String ROW = "1000017,C-88812,123-45-6789,42.50\n";
    private static final long ROWS = (1L << 30) / ROW.length() + 1;
    private static final String BOUNDARY = "gatewayTestBoundary";

    @Test
    void shouldSanitizeAnUploadLargerThanTheHeapOnItsWayUpstream() throws Exception {
        AtomicLong rowsReceived = new AtomicLong();
        AtomicLong ssnSeen = new AtomicLong();
        AtomicReference<String> headerReceived = new AtomicReference<>();
        ScriptedUpstream.answerWith(exchange -> {
            String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
            MultipartReader parts = new MultipartReader(exchange.getRequestBody(), contentType.substring(contentType.indexOf('=') + 1));
            for (MultipartReader.Part part = parts.next(); part != null; part = parts.next()) {
                if (part.headers().isFile()) {
                    BufferedReader lines = new BufferedReader(new InputStreamReader(part.content(), StandardCharsets.UTF_8));
                    headerReceived.set(lines.readLine());
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        rowsReceived.incrementAndGet();
                        if (line.contains("123-45-6789")) {
                            ssnSeen.incrementAndGet();
                        }
                    }
                }
            }
            byte[] body = "{\"id\":\"file-big\",\"object\":\"file\",\"bytes\":1,\"created_at\":1,\"filename\":\"big.csv\",\"purpose\":\"user_data\",\"status\":\"processed\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        });
        byte[] head = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.csv\"\r\n"
                + "Content-Type: text/csv\r\n\r\n" + HEADER).getBytes(StandardCharsets.US_ASCII);
        byte[] tail = ("\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nuser_data\r\n--"
                + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);

        HttpResponse<String> answer;
        try (HttpClient http = HttpClient.newHttpClient()) {
            answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/files"))
                    .header("Authorization", "Bearer " + ALICE_KEY)
                    .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(Collections.enumeration(
                            List.of(new ByteArrayInputStream(head), new Rows(ROW, ROWS), new ByteArrayInputStream(tail))))))
                    .build(), HttpResponse.BodyHandlers.ofString());
        }

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Gateway-Sanitized"))
                .hasValue("format=csv; dropped=customer_ssn; pseudonymized=customer_id; rows=" + ROWS);
        assertThat(headerReceived.get()).isEqualTo("order_id,customer_id,amount");
        assertThat(rowsReceived.get()).isEqualTo(ROWS);
        assertThat(ssnSeen.get()).isZero();
        assertThat(Runtime.getRuntime().maxMemory()).as("the test heap must be smaller than the upload").isLessThan(ROWS * ROW.length());
    }

    /** Generates {@code count} copies of a row on the fly. */
    private static final class Rows extends InputStream {
        private final byte[] row;
        private long remaining;
        private int position;

        Rows(String row, long count) {
            this.row = row.getBytes(StandardCharsets.US_ASCII);
            this.remaining = count * row.length();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (remaining == 0) {
                return -1;
            }
            int count = (int) Math.min(length, remaining);
            for (int i = 0; i < count; i++) {
                buffer[offset + i] = row[position];
                position = position == row.length - 1 ? 0 : position + 1;
            }
            remaining -= count;
            return count;
        }
    }
}
