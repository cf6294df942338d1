package com.sandboxgateway.simulator;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.node.ObjectNode;

/**
 * The HTTP side of the simulator: the JDK's server on loopback, one virtual thread per request (a stream
 * holds its thread while events dribble out), OpenAI's headers and error shapes, and a table of routes.
 */
final class SimulatorServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SimulatorServer.class);

    /** A route: method, a path pattern with named groups, and what answers it. */
    record Route(String method, Pattern path, Handler handler) {

        static Route of(String method, String path, Handler handler) {
            return new Route(method, Pattern.compile(path.replaceAll("\\{(\\w+)}", "(?<$1>[^/]+)")), handler);
        }
    }

    /** Answers one call; throws {@link ApiError} for an OpenAI-shaped error. */
    @FunctionalInterface
    interface Handler {
        void handle(Call call) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService threads;
    private final List<Route> routes;

    private SimulatorServer(HttpServer server, ExecutorService threads, List<Route> routes) {
        this.server = server;
        this.threads = threads;
        this.routes = routes;
    }

    static SimulatorServer start(String host, int port, List<Route> routes) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 128);
        } catch (BindException e) {
            throw new IOException("port " + port + " is taken", e);
        }
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        SimulatorServer simulator = new SimulatorServer(server, threads, List.copyOf(routes));
        server.setExecutor(threads);
        server.createContext("/", simulator::serve);
        server.start();
        return simulator;
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void serve(HttpExchange exchange) {
        try (exchange) {
            exchange.getResponseHeaders().set("x-request-id", "req_" + HexFormat.of().formatHex(randomBytes(16)));
            exchange.getResponseHeaders().set("openai-processing-ms", Integer.toString(ThreadLocalRandom.current().nextInt(15, 400)));
            exchange.getResponseHeaders().set("openai-version", "2020-10-01");
            String path = exchange.getRequestURI().getPath();
            try {
                List<String> authorization = exchange.getRequestHeaders().getOrDefault("Authorization", List.of());
                if (authorization.isEmpty() || !authorization.stream().allMatch(value -> value.startsWith("Bearer ") && value.length() > 7)) {
                    throw new ApiError(401, "invalid_request_error", "You didn't provide an API key. You need to provide your "
                            + "API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                            null, "invalid_api_key");
                }
                for (Route route : routes) {
                    Matcher matcher = route.path().matcher(path);
                    if (route.method().equals(exchange.getRequestMethod()) && matcher.matches()) {
                        route.handler().handle(new Call(exchange, matcher));
                        return;
                    }
                }
                throw new ApiError(404, "invalid_request_error", "Invalid URL (" + exchange.getRequestMethod() + " " + path + ")",
                        null, "unknown_url");
            } catch (ApiError error) {
                error(exchange, error);
            } catch (IOException | RuntimeException e) {
                log.debug("Simulator call {} {} ended: {}", exchange.getRequestMethod(), path, e.toString());
                error(exchange, new ApiError(500, "server_error", "The simulator failed: " + e.getMessage(), null, null));
            }
        }
    }

    private static void error(HttpExchange exchange, ApiError error) {
        ObjectNode body = Call.JSON.createObjectNode();
        body.putObject("error").put("message", error.getMessage()).put("type", error.type()).put("param", error.param())
                .put("code", error.code());
        try {
            byte[] bytes = Call.JSON.writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(error.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException | RuntimeException e) {
            // The answer had started (a stream) or the client left: nothing more to tell it.
        }
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
