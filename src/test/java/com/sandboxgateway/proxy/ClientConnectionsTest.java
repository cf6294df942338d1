package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.support.GatewayIntegrationTest;

/** Client connections are kept open across many requests, as a proxy's should be (Tomcat would close them after 100). */
class ClientConnectionsTest extends GatewayIntegrationTest {

    private static final int REQUESTS = 250;

    @Test
    void shouldKeepOneClientConnectionOpenForHundredsOfRequests() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 1; i <= REQUESTS; i++) {
                // Refused by the gateway itself (not an allowed route), so no upstream is involved.
                out.write(("GET /v1/models HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer " + ALICE_KEY + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String head = readHead(in);
                assertThat(head).as("answer %d", i).startsWith("HTTP/1.1 404");
                assertThat(head.toLowerCase(Locale.ROOT)).as("answer %d", i).doesNotContain("connection: close");
                in.readNBytes(contentLength(head));
            }
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int next = in.read();
            assertThat(next).as("the connection was closed after: %s", head).isNotNegative();
            head.append((char) next);
        }
        return head.toString();
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        throw new AssertionError("no Content-Length in " + head);
    }
}
