package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.support.ScriptedUpstream;
import com.sandboxgateway.support.ScriptedUpstreamIntegrationTest;

class BrokenDownloadTest extends ScriptedUpstreamIntegrationTest {

    @Test
    void shouldCutTheClientOffWhenADownloadBreaksMidway() throws Exception {
        String file = "file-" + System.nanoTime();
        ScriptedUpstream.answerWith(exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (exchange.getRequestMethod().equals("POST")) {
                byte[] body = ("{\"id\":\"" + file + "\",\"object\":\"file\",\"bytes\":1000,\"created_at\":1,\"filename\":\"a.csv\","
                        + "\"purpose\":\"user_data\",\"status\":\"processed\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "text/csv");
            exchange.sendResponseHeaders(200, 100_000);
            exchange.getResponseBody().write("a,b\n1,2\n".repeat(8000).getBytes(StandardCharsets.US_ASCII));
            exchange.getResponseBody().flush();
            // Returning closes the exchange 36 KB short of its Content-Length: the connection drops.
        });

        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> upload = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/files"))
                    .header("Authorization", "Bearer " + ALICE_KEY)
                    .header("Content-Type", "multipart/form-data; boundary=b")
                    .POST(HttpRequest.BodyPublishers.ofString("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\na,b\r\n--b--\r\n"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(upload.statusCode()).isEqualTo(200);

            HttpRequest download = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/files/" + file + "/content"))
                    .header("Authorization", "Bearer " + ALICE_KEY).build();
            assertThatThrownBy(() -> http.send(download, HttpResponse.BodyHandlers.ofByteArray())).isInstanceOf(IOException.class);
        }
    }
}
