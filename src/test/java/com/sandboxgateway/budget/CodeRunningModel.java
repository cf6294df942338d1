package com.sandboxgateway.budget;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted OpenAI that runs as much code as a request lets it: each response executes
 * {@code min(max_tool_calls, wants)} code blocks, and counts them, so a test can check how many turns
 * really ran upstream. Plain, streamed and background responses (finished when fetched); containers.
 */
final class CodeRunningModel implements HttpHandler {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    final AtomicInteger executed = new AtomicInteger();
    private final int wants;
    private final long outputTokens;
    private final Map<String, Queued> background = new ConcurrentHashMap<>();

    /** A background response: the code it will have run when fetched, and the tools it echoes, as OpenAI does. */
    private record Queued(int calls, JsonNode tools) {
    }

    /** @param wants how many code blocks the model would run if nothing stopped it */
    CodeRunningModel(int wants, long outputTokens) {
        this.wants = wants;
        this.outputTokens = outputTokens;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        JsonNode request = exchange.getRequestMethod().equals("POST") && (path.equals("/v1/responses") || path.equals("/v1/containers"))
                ? JSON.readTree(exchange.getRequestBody()) : null;
        if (path.equals("/v1/containers")) {
            send(exchange, "application/json", JSON.writeValueAsString(JSON.createObjectNode()
                    .put("id", "cntr_" + id()).put("object", "container").put("status", "running")
                    .put("memory_limit", request.path("memory_limit").asString("1g"))));
        } else if (path.equals("/v1/responses")) {
            int calls = request.path("tools").isEmpty() ? 0 : Math.min(wants, request.path("max_tool_calls").asInt(wants));
            String id = "resp_" + id();
            JsonNode tools = request.path("tools");
            if (request.path("background").asBoolean(false)) {
                background.put(id, new Queued(calls, tools));
                send(exchange, "application/json", JSON.writeValueAsString(response(id, "queued", 0, tools)));
            } else if (request.path("stream").asBoolean(false)) {
                executed.addAndGet(calls);
                stream(exchange, id, calls, tools);
            } else {
                executed.addAndGet(calls);
                send(exchange, "application/json", JSON.writeValueAsString(response(id, "completed", calls, tools)));
            }
        } else {
            String id = path.substring(path.lastIndexOf('/') + 1);
            Queued queued = background.remove(id);
            if (queued != null) {
                executed.addAndGet(queued.calls());
            }
            send(exchange, "application/json", JSON.writeValueAsString(queued == null
                    ? response(id, "completed", 0, JSON.createArrayNode()) : response(id, "completed", queued.calls(), queued.tools())));
        }
    }

    private ObjectNode response(String id, String status, int calls, JsonNode tools) {
        ObjectNode response = JSON.createObjectNode().put("id", id).put("object", "response").put("created_at", 1_750_000_000)
                .put("status", status).put("model", "gpt-4.1-2025-04-14");
        response.set("tools", tools.deepCopy());
        ArrayNode output = response.putArray("output");
        String container = "cntr_" + id();
        for (int i = 0; i < calls; i++) {
            output.addObject().put("type", "code_interpreter_call").put("id", "ci_" + id()).put("status", "completed")
                    .put("code", "print(" + i + ")").put("container_id", container).putArray("outputs");
        }
        if (status.equals("queued")) {
            response.putNull("usage");
        } else {
            response.putObject("usage").put("input_tokens", 1000).put("output_tokens", outputTokens)
                    .put("total_tokens", 1000 + outputTokens);
        }
        return response;
    }

    private void stream(HttpExchange exchange, String id, int calls, JsonNode tools) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            event(out, "response.created", JSON.createObjectNode().put("type", "response.created")
                    .set("response", response(id, "in_progress", 0, tools)));
            ObjectNode completed = response(id, "completed", calls, tools);
            for (JsonNode item : completed.path("output")) {
                event(out, "response.output_item.done", JSON.createObjectNode().put("type", "response.output_item.done")
                        .set("item", item));
            }
            event(out, "response.completed", JSON.createObjectNode().put("type", "response.completed").set("response", completed));
        }
    }

    private static void event(OutputStream out, String type, ObjectNode data) throws IOException {
        out.write(("event: " + type + "\ndata: " + JSON.writeValueAsString(data) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(HttpExchange exchange, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
