package com.sandboxgateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The upstream's silence is timed by the watchdog, not by the sockets: an answer that stops is ended with a timeout,
 * one that keeps coming (or an upload that keeps going) is not, however long it takes in all.
 */
class UpstreamTransportTest {

    private static final Duration SILENCE = Duration.ofMillis(400);

    private final CountDownLatch testDone = new CountDownLatch(1);
    private HttpServer server;
    private UpstreamTransport transport;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/stalls", exchange -> {
            OutputStream out = answer(exchange, 100);
            out.write(new byte[10]);
            out.flush();
            await();
        });
        server.createContext("/trickles", exchange -> {
            OutputStream out = answer(exchange, 12);
            for (int i = 0; i < 12; i++) {
                out.write('x');
                out.flush();
                pause(SILENCE.dividedBy(4));
            }
            exchange.close();
        });
        server.createContext("/uploads", exchange -> {
            long length = exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
            byte[] body = String.valueOf(length).getBytes(StandardCharsets.UTF_8);
            answer(exchange, body.length).write(body);
            exchange.close();
        });
        server.start();
        URI baseUrl = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        transport = new UpstreamTransport(baseUrl, "sk-test", new UpstreamProperties(baseUrl, "sk-test", Duration.ofSeconds(2),
                SILENCE, Duration.ofSeconds(5), 4, new UpstreamProperties.Retry(1, Duration.ofMillis(1), Duration.ofSeconds(1)), false));
    }

    @AfterEach
    void stop() throws IOException {
        testDone.countDown();
        transport.close();
        server.stop(0);
    }

    @Test
    void shouldEndAnAnswerThatStopsWithATimeout() throws IOException {
        try (UpstreamResponse answer = transport.exchange(get("/stalls"))) {
            assertThat(answer.status()).isEqualTo(200);

            Throwable thrown = catchThrowable(() -> answer.readBody(1_000));

            assertThat(thrown).isInstanceOf(SocketTimeoutException.class).hasMessageContaining("silent for");
            assertThat(UpstreamClient.failure((IOException) thrown).code()).isEqualTo(ErrorCode.UPSTREAM_TIMEOUT);
        }
    }

    @Test
    void shouldNotEndAnAnswerThatKeepsComingForLongerThanTheSilenceAllowed() throws IOException {
        try (UpstreamResponse answer = transport.exchange(get("/trickles"))) {
            assertThat(new String(answer.readBody(1_000), StandardCharsets.UTF_8)).isEqualTo("x".repeat(12));
        }
    }

    @Test
    void shouldNotEndAnUploadThatKeepsGoingForLongerThanTheSilenceAllowed() throws IOException {
        int chunks = 6;
        InputStream slowFile = new InputStream() {
            private int left = chunks;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                if (left-- == 0) {
                    return -1;
                }
                pause(SILENCE.dividedBy(3));
                return Math.min(length, 1024);
            }
        };
        UpstreamRequest upload = new UpstreamRequest("team-a", "POST", "/uploads", Map.of(),
                new UpstreamRequest.Stream(slowFile, chunks * 1024L, "application/octet-stream"), false);

        try (UpstreamResponse answer = transport.exchange(upload)) {
            assertThat(new String(answer.readBody(100), StandardCharsets.UTF_8)).isEqualTo(String.valueOf(chunks * 1024));
        }
    }

    private static UpstreamRequest get(String path) {
        return new UpstreamRequest("team-a", "GET", path, Map.of(), new UpstreamRequest.NoBody(), false);
    }

    private static OutputStream answer(HttpExchange exchange, long length) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, length);
        return exchange.getResponseBody();
    }

    private void await() {
        try {
            testDone.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
