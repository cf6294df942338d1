package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
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

import com.sandboxgateway.support.ScriptedUpstream;
import com.sandboxgateway.support.ScriptedUpstreamIntegrationTest;

/**
 * Uploads stream through: the test JVM runs with a heap far smaller than the upload (see the
 * surefire {@code argLine}), so the upload can only succeed if no layer holds it whole.
 */
class UploadStreamingTest extends ScriptedUpstreamIntegrationTest {

    private static final long UPLOAD_BYTES = 1L << 30;
    private static final String BOUNDARY = "gatewayTestBoundary";

    @Test
    void shouldStreamAnUploadLargerThanTheHeapToTheUpstream() throws Exception {
        AtomicLong received = new AtomicLong();
        AtomicReference<String> contentType = new AtomicReference<>();
        ScriptedUpstream.answerWith(exchange -> {
            contentType.set(exchange.getRequestHeaders().getFirst("Content-Type"));
            try (InputStream in = exchange.getRequestBody()) {
                received.set(in.transferTo(OutputStream.nullOutputStream()));
            }
            byte[] body = "{\"id\":\"file-big\",\"object\":\"file\",\"bytes\":1,\"created_at\":1,\"filename\":\"big.csv\",\"purpose\":\"user_data\",\"status\":\"processed\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        });
        byte[] head = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nuser_data\r\n--" + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.csv\"\r\nContent-Type: text/csv\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] tail = ("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);

        HttpResponse<String> answer;
        try (HttpClient http = HttpClient.newHttpClient()) {
            answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/files"))
                    .header("Authorization", "Bearer " + ALICE_KEY)
                    .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(Collections.enumeration(
                            List.of(new ByteArrayInputStream(head), new CsvRows(UPLOAD_BYTES), new ByteArrayInputStream(tail))))))
                    .build(), HttpResponse.BodyHandlers.ofString());
        }

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(received.get()).isEqualTo(head.length + UPLOAD_BYTES + tail.length);
        assertThat(contentType.get()).isEqualTo("multipart/form-data; boundary=" + BOUNDARY);
        assertThat(Runtime.getRuntime().maxMemory()).as("the test heap must be smaller than the upload").isLessThan(UPLOAD_BYTES);
    }

    /** Generates {@code size} bytes of CSV rows on the fly. */
    private static final class CsvRows extends InputStream {
        private static final byte[] ROW = "12345,alice@example.com,42.00\n".getBytes(StandardCharsets.US_ASCII);
        private long remaining;
        private int position;

        CsvRows(long size) {
            this.remaining = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (remaining == 0) {
                return -1;
            }
            int count = (int) Math.min(length, remaining);
            for (int i = 0; i < count; i++) {
                buffer[offset + i] = ROW[position];
                position = (position + 1) % ROW.length;
            }
            remaining -= count;
            return count;
        }
    }
}
