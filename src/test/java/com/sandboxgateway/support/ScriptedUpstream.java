package com.sandboxgateway.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * An upstream whose every byte and pause a test scripts, for what WireMock cannot express: waiting
 * for the client to see an event before sending the next, noticing a dropped connection, or swallowing
 * a gigabyte without keeping it. One per test JVM; each test installs its own handler.
 */
public final class ScriptedUpstream {

    private static final AtomicReference<HttpHandler> HANDLER = new AtomicReference<>();
    private static final HttpServer SERVER = start();

    private ScriptedUpstream() {
    }

    public static String baseUrl() {
        return "http://127.0.0.1:" + SERVER.getAddress().getPort();
    }

    public static void answerWith(HttpHandler handler) {
        HANDLER.set(handler);
    }

    private static HttpServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", ScriptedUpstream::dispatch);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void dispatch(HttpExchange exchange) throws IOException {
        HttpHandler handler = HANDLER.get();
        if (handler == null) {
            exchange.sendResponseHeaders(500, -1);
            return;
        }
        try (exchange) {
            handler.handle(exchange);
        }
    }
}
