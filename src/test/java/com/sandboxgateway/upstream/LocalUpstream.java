package com.sandboxgateway.upstream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import com.sun.net.httpserver.HttpServer;

import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * A local JDK HTTP server standing in for OpenAI, and an {@link UpstreamClient} to it (one attempt per call), for
 * plain unit tests of the after-answer actions that call the upstream again. It notes every call it receives.
 */
public final class LocalUpstream implements AutoCloseable {

    /** What the upstream answers a call with. */
    public record Reply(int status, String json) {
    }

    private final HttpServer server;
    private final UpstreamClient client;
    private final List<String> calls = new CopyOnWriteArrayList<>();

    /** @param replies the answer to each call, by its method and path with query ({@code "GET /v1/files?after=f_2"}) */
    public LocalUpstream(Function<String, Reply> replies) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String call = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            calls.add(call);
            Reply reply = replies.apply(call);
            byte[] body = reply.json().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        URI baseUrl = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        UpstreamProperties properties = new UpstreamProperties(baseUrl, "sk-test", Duration.ofSeconds(2), Duration.ofSeconds(5),
                Duration.ofSeconds(5), 4, new UpstreamProperties.Retry(1, Duration.ofMillis(1), Duration.ofSeconds(1)), false);
        BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
        bulkheads.addConfiguration(UpstreamClient.TEAM_BULKHEAD_CONFIG, BulkheadConfig.ofDefaults());
        client = new UpstreamClient(new UpstreamTransport(baseUrl, "sk-test", properties), CircuitBreaker.ofDefaults("upstream"),
                bulkheads, new UpstreamRetry(properties.retry()));
    }

    public UpstreamClient client() {
        return client;
    }

    /** The calls received so far, in order, as {@code "METHOD /path?query"}. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.stop(0);
    }
}
