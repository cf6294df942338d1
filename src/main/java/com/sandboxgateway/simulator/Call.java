package com.sandboxgateway.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;

import com.sun.net.httpserver.HttpExchange;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** One request to the simulator: its path parameters, query and body, and the ways to answer it. */
final class Call {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpExchange exchange;
    private final Matcher path;
    private final Map<String, String> query;

    Call(HttpExchange exchange, Matcher path) {
        this.exchange = exchange;
        this.path = path;
        this.query = parseQuery(exchange.getRequestURI().getRawQuery());
    }

    /** A named group of the route's path pattern, e.g. {@code id}. */
    String path(String name) {
        return path.group(name);
    }

    /** A query parameter, or {@code null}. */
    String query(String name) {
        return query.get(name);
    }

    String header(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    InputStream body() {
        return exchange.getRequestBody();
    }

    /** The JSON object body; an empty object for an empty body. */
    ObjectNode json() throws IOException {
        byte[] bytes = exchange.getRequestBody().readAllBytes();
        if (bytes.length == 0) {
            return JSON.createObjectNode();
        }
        JsonNode parsed;
        try {
            parsed = JSON.readTree(bytes);
        } catch (RuntimeException e) {
            throw ApiError.invalid("We could not parse the JSON body of your request.", null);
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw ApiError.invalid("The request body must be a JSON object.", null);
        }
        return object;
    }

    void json(int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    void json(JsonNode body) throws IOException {
        json(200, body);
    }

    /** A download, as OpenAI sends it: {@code application/octet-stream} with the exact length. */
    void bytes(Blob content) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
        exchange.sendResponseHeaders(200, content.size() == 0 ? -1 : content.size());
        try (OutputStream out = exchange.getResponseBody(); InputStream in = content.open()) {
            in.transferTo(out);
        }
    }

    /** Starts a server-sent event stream; each event is flushed as it is written. */
    EventStream events() throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        return new EventStream(exchange.getResponseBody());
    }

    /** Server-sent events in OpenAI's framing: {@code event:} and one-line {@code data:} JSON, no {@code [DONE]}. */
    static final class EventStream implements AutoCloseable {

        private final OutputStream out;

        private EventStream(OutputStream out) {
            this.out = out;
        }

        void send(ObjectNode event) throws IOException {
            String frame = "event: " + event.path("type").asString() + "\ndata: " + JSON.writeValueAsString(event) + "\n\n";
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> parameters = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            parameters.putIfAbsent(name, value);
        }
        return parameters;
    }
}
