package com.sandboxgateway.simulator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sandboxgateway.simulator.SimulatorServer.Route;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/responses}: plain, streamed and background. The {@link PretendModel} writes the code; it runs
 * in the request's container (an explicit one, or a new {@code auto} container holding its {@code file_ids}),
 * which then holds the chart it saved. A request offering the {@code shell} tool (and not code interpreter)
 * gets the commands of {@link PretendShell} instead, run in its shell environment's container. A background response is {@code queued} until it is first retrieved,
 * then finished; responses with {@code conversation} add their input and output to it.
 */
final class ResponsesApi {

    private static final String DEFAULT_MODEL = "gpt-4.1-2025-04-14";
    // A 16x16 PNG: the chart the pretend code saves.
    private static final byte[] CHART = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAAAAAA6mKC9AAAAHElEQVR42mP4jwYYcAtokCeggVNAgzQBDToIAAB24t1pPxmmewAAAABJRU5ErkJggg==");
    private static final int DATA_HEAD_BYTES = 64 * 1024;

    private final Storage storage;
    private final ContainersApi containers;
    private final ResponseEvents events;
    /** Background responses by id: what they will show once finished. */
    private final Map<String, ObjectNode> running = new ConcurrentHashMap<>();

    ResponsesApi(Storage storage, ContainersApi containers, ResponseEvents events) {
        this.storage = storage;
        this.containers = containers;
        this.events = events;
    }

    List<Route> routes() {
        return List.of(
                Route.of("POST", "/v1/responses", this::create),
                Route.of("GET", "/v1/responses/{id}", call -> call.json(retrieve(call.path("id")))),
                Route.of("DELETE", "/v1/responses/{id}", this::delete),
                Route.of("POST", "/v1/responses/{id}/cancel", this::cancel));
    }

    private void create(Call call) throws IOException {
        ObjectNode request = call.json();
        String conversation = ConversationsApi.conversationOf(request);
        if (conversation != null) {
            storage.conversation(conversation);
        }
        String previous = request.path("previous_response_id").asString(null);
        if (previous != null) {
            storage.response(previous);
        }
        ObjectNode response = answer(request);
        boolean store = request.path("store").asBoolean(true);
        if (conversation != null) {
            response.putObject("conversation").put("id", conversation);
            storage.addItems(conversation, ConversationsApi.items(request.path("input")));
        }
        if (request.path("background").asBoolean(false)) {
            ObjectNode queued = response.deepCopy().put("status", "queued").putNull("completed_at");
            queued.putArray("output");
            queued.putNull("usage");
            running.put(response.path("id").asString(), response);
            storage.putResponse(queued);
            call.json(queued);
            return;
        }
        finished(response);
        if (store) {
            storage.putResponse(response);
        }
        if (request.path("stream").asBoolean(false)) {
            events.stream(call, response);
        } else {
            call.json(response);
        }
    }

    /** A background response finishes the first time it is looked at after it was created. */
    private ObjectNode retrieve(String id) {
        ObjectNode stored = storage.response(id);
        ObjectNode finished = running.remove(id);
        if (finished == null) {
            return stored;
        }
        finished(finished);
        storage.putResponse(finished);
        return finished;
    }

    private void cancel(Call call) throws IOException {
        String id = call.path("id");
        ObjectNode response = storage.response(id);
        if (running.remove(id) == null) {
            throw ApiError.invalid("Only a background response that is still queued or in progress can be cancelled.", null);
        }
        response.put("status", "cancelled");
        storage.putResponse(response);
        call.json(response);
    }

    private void delete(Call call) throws IOException {
        String id = call.path("id");
        storage.deleteResponse(id);
        running.remove(id);
        call.json(Call.JSON.createObjectNode().put("id", id).put("object", "response").put("deleted", true));
    }

    /** A finished response adds its output to its conversation. */
    private void finished(ObjectNode response) {
        String conversation = response.path("conversation").path("id").asString(null);
        if (conversation != null) {
            List<ObjectNode> output = new ArrayList<>();
            response.path("output").forEach(item -> output.add((ObjectNode) item));
            storage.addItems(conversation, output);
        }
    }

    /** The completed response to a request: the code the pretend model ran, its message, the request echoed. */
    private ObjectNode answer(ObjectNode request) throws IOException {
        JsonNode tool = tool(request, "code_interpreter");
        JsonNode shell = tool == null ? tool(request, "shell") : null;
        String containerId = tool != null ? container(tool.path("container"))
                : shell != null ? shellContainer(shell.path("environment")) : null;
        int maxCalls = tool == null && shell == null ? 0 : request.path("max_tool_calls").asInt(Integer.MAX_VALUE);
        PretendShell.Run commands = shell != null && maxCalls > 0 ? PretendShell.run(prompt(request), data(containerId)) : null;
        PretendModel.Answer answer = commands != null ? new PretendModel.Answer(List.of(), PretendShell.summary(commands))
                : PretendModel.answer(prompt(request), data(containerId), maxCalls);
        long now = storage.now();
        ObjectNode response = Call.JSON.createObjectNode().put("id", Storage.hexId("resp_")).put("object", "response")
                .put("created_at", now).put("status", "completed").put("completed_at", now)
                .put("background", request.path("background").asBoolean(false));
        response.putNull("error");
        response.putNull("incomplete_details");
        echo(request, response, "instructions");
        echo(request, response, "max_output_tokens");
        echo(request, response, "max_tool_calls");
        response.put("model", request.path("model").asString(DEFAULT_MODEL));
        ArrayNode output = response.putArray("output");
        String chartId = null;
        for (PretendModel.Run run : answer.runs()) {
            ObjectNode call = output.addObject().put("type", "code_interpreter_call").put("id", Storage.hexId("ci_"))
                    .put("status", "completed").put("container_id", containerId).put("code", run.code());
            call.putArray("outputs").addObject().put("type", "logs").put("logs", run.logs());
            if (run.savesChart()) {
                chartId = containers.put(containerId, PretendModel.CHART_PATH, storage.bytes(CHART), "assistant").path("id").asString();
            }
        }
        if (commands != null) {
            PretendShell.items(commands, containerId).forEach(output::add);
        }
        if (containerId != null) {
            storage.touch(containerId);
        }
        if (commands == null || containerId != null) {
            // Commands run on the client's machine wait for its shell_call_output: no message yet.
            output.add(message(answer.message(), containerId, chartId));
        }
        response.put("parallel_tool_calls", true);
        echo(request, response, "previous_response_id");
        response.putObject("reasoning").putNull("effort").putNull("summary");
        echo(request, response, "safety_identifier");
        response.put("service_tier", "default").put("store", request.path("store").asBoolean(true)).put("temperature", 1.0);
        response.putObject("text").putObject("format").put("type", "text");
        response.set("tool_choice", request.has("tool_choice") ? request.get("tool_choice").deepCopy() : Call.JSON.getNodeFactory().stringNode("auto"));
        response.set("tools", request.path("tools").isArray() ? request.path("tools").deepCopy() : Call.JSON.createArrayNode());
        response.put("top_p", 1.0).put("truncation", "disabled");
        response.set("metadata", request.path("metadata").isObject() ? request.path("metadata").deepCopy() : Call.JSON.createObjectNode());
        int inputTokens = 1000 + prompt(request).length() / 4;
        int outputTokens = 100 + answer.runs().stream().mapToInt(run -> run.code().length() / 4).sum();
        ObjectNode usage = response.putObject("usage").put("input_tokens", inputTokens);
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.put("output_tokens", outputTokens);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        usage.put("total_tokens", inputTokens + outputTokens);
        response.putNull("user");
        return response;
    }

    private static ObjectNode message(String text, String containerId, String chartId) {
        ObjectNode message = Call.JSON.createObjectNode().put("type", "message").put("id", Storage.hexId("msg_"))
                .put("status", "completed").put("role", "assistant");
        ObjectNode part = message.putArray("content").addObject().put("type", "output_text").put("text", text);
        part.putArray("logprobs");
        ArrayNode annotations = part.putArray("annotations");
        String link = "sandbox:" + PretendModel.CHART_PATH;
        int start = text.indexOf(link);
        if (chartId != null && start >= 0) {
            annotations.addObject().put("type", "container_file_citation").put("container_id", containerId)
                    .put("file_id", chartId).put("filename", "plot.png").put("start_index", start)
                    .put("end_index", start + link.length());
        }
        return message;
    }

    private static JsonNode tool(ObjectNode request, String type) {
        for (JsonNode tool : request.path("tools")) {
            if (type.equals(tool.path("type").asString(null))) {
                return tool;
            }
        }
        return null;
    }

    /**
     * Where shell commands run: a new container for {@code container_auto}, the one referenced (it must
     * exist), or {@code null} for the client's own machine ({@code local}, or no environment).
     */
    private String shellContainer(JsonNode environment) throws IOException {
        return switch (environment.path("type").asString("local")) {
            case "container_auto" -> container(environment);
            case "container_reference" -> container(environment.path("container_id"));
            default -> null;
        };
    }

    /** The container code runs in: the one named (it must exist), or a new one for {@code {"type": "auto"}}. */
    private String container(JsonNode container) throws IOException {
        if (container.isString()) {
            String id = container.asString();
            storage.container(id);
            return id;
        }
        ObjectNode spec = container.isObject() ? ((ObjectNode) container).deepCopy() : Call.JSON.createObjectNode();
        spec.put("name", "auto");
        return containers.create(spec).path("id").asString();
    }

    private List<PretendModel.DataFile> data(String containerId) {
        if (containerId == null) {
            return List.of();
        }
        return storage.containerFiles(containerId).stream().filter(file -> "user".equals(file.object().path("source").asString()))
                .map(file -> new PretendModel.DataFile(file.object().path("path").asString(), file.content().head(DATA_HEAD_BYTES)))
                .toList();
    }

    /** The text a model would read: instructions, then every text of the input. */
    private static String prompt(ObjectNode request) {
        StringBuilder prompt = new StringBuilder(request.path("instructions").asString(""));
        JsonNode input = request.path("input");
        if (input.isString()) {
            prompt.append('\n').append(input.asString());
        }
        for (JsonNode item : input) {
            JsonNode content = item.path("content");
            if (content.isString()) {
                prompt.append('\n').append(content.asString());
            }
            for (JsonNode part : content) {
                prompt.append('\n').append(part.path("text").asString(""));
            }
        }
        return prompt.toString();
    }

    /** A request field the response repeats, or {@code null} when the request had none. */
    private static void echo(ObjectNode request, ObjectNode response, String field) {
        JsonNode value = request.get(field);
        if (value != null && !value.isNull()) {
            response.set(field, value.deepCopy());
        } else {
            response.putNull(field);
        }
    }
}
