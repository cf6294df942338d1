package com.sandboxgateway.openai;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.api.Route;

import tools.jackson.databind.JsonNode;

/** The names of the OpenAI Responses format the gateway acts on, in one place. */
public final class OpenAiFormat {

    /** The tool that runs code in a container. */
    public static final String CODE_INTERPRETER = "code_interpreter";
    /** The hosted shell tool: commands run in a container (or locally, when its environment is {@code local}). */
    public static final String SHELL = "shell";
    /** What {@code include} names to get a code-interpreter call's printed outputs. */
    public static final String CODE_OUTPUTS_INCLUDE = "code_interpreter_call.outputs";

    /** A response in one of these states will not execute anything more. */
    public static final Set<String> FINISHED_RESPONSE = Set.of("completed", "failed", "incomplete", "cancelled");
    /** A tool call in one of these states ran to an end. */
    public static final Set<String> FINISHED_CALL = Set.of("completed", "failed", "incomplete");

    public static final String RESPONSE_CREATED = "response.created";
    public static final String OUTPUT_ITEM_ADDED = "response.output_item.added";
    public static final String OUTPUT_ITEM_DONE = "response.output_item.done";
    /** A streamed code-interpreter call's whole code ({@code code}, of the call {@code item_id}); it runs next. */
    public static final String CODE_DONE = "response.code_interpreter_call_code.done";
    /** A streamed code-interpreter call ({@code item_id}) started running its code. */
    public static final String CODE_INTERPRETING = "response.code_interpreter_call.interpreting";
    /** Stream events that carry the finished response. */
    public static final Set<String> FINISHING_EVENTS = Set.of("response.completed", "response.failed", "response.incomplete");
    /** The stream event that reports an error; it ends the stream too. */
    public static final String ERROR_EVENT = "error";

    private OpenAiFormat() {
    }

    /** Whether a route's successful JSON answer is a response object (creating, fetching or cancelling one). */
    public static boolean showsResponse(Route route) {
        return route == Route.RESPONSES_CREATE || route == Route.RESPONSE_GET || route == Route.RESPONSE_CANCEL;
    }

    /** The {@code code_interpreter} tools of a {@code tools} array (a request's, or the ones a response echoes). */
    public static List<JsonNode> codeInterpreterTools(JsonNode tools) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode tool : tools) {
            if (CODE_INTERPRETER.equals(tool.path("type").asString(null))) {
                found.add(tool);
            }
        }
        return found;
    }

    /**
     * The auto container of the first tool of this type ({@link #CODE_INTERPRETER} or {@link #SHELL}): a
     * code interpreter's {@code container} object, a shell's {@code container_auto} environment; {@code null}
     * when that tool names a container or there is none.
     */
    public static JsonNode autoContainer(JsonNode tools, String type) {
        for (JsonNode tool : tools) {
            if (type.equals(tool.path("type").asString(null))) {
                return autoContainerOf(tool);
            }
        }
        return null;
    }

    /** Whether a {@code tools} array may run code or commands in a container: it has {@code code_interpreter} or {@code shell}. */
    public static boolean offersCodeExecution(JsonNode tools) {
        return !codeExecutionTools(tools).isEmpty();
    }

    /** The types of a {@code tools} array's tools that run code or commands in a container, in its order. */
    public static List<String> codeExecutionTools(JsonNode tools) {
        List<String> found = new ArrayList<>();
        for (JsonNode tool : tools) {
            String type = tool.path("type").asString("");
            if (type.equals(CODE_INTERPRETER) || type.equals(SHELL)) {
                found.add(type);
            }
        }
        return found;
    }

    /**
     * The container a {@code tools} array's code or commands run in, when it names one ({@code code_interpreter}'s
     * {@code container} id, a shell's {@code container_reference}); else {@code null}.
     */
    public static String namedContainer(JsonNode tools) {
        for (JsonNode tool : tools) {
            String type = tool.path("type").asString("");
            if (type.equals(CODE_INTERPRETER) && tool.path("container").isString()) {
                return tool.path("container").asString();
            }
            if (type.equals(SHELL) && "container_reference".equals(tool.path("environment").path("type").asString(null))) {
                return tool.path("environment").path("container_id").asString(null);
            }
        }
        return null;
    }

    /**
     * The memory tier of the auto container a {@code tools} array asks for ({@code code_interpreter}'s
     * {@code container: {type: auto}}, a shell's {@code container_auto} environment), or {@code null}.
     */
    public static String autoContainerTier(JsonNode tools) {
        for (JsonNode tool : tools) {
            JsonNode container = autoContainerOf(tool);
            if (container != null) {
                return container.path("memory_limit").asString(null);
            }
        }
        return null;
    }

    private static JsonNode autoContainerOf(JsonNode tool) {
        return switch (tool.path("type").asString("")) {
            case CODE_INTERPRETER -> tool.path("container").isObject() ? tool.path("container") : null;
            case SHELL -> "container_auto".equals(tool.path("environment").path("type").asString(null)) ? tool.path("environment") : null;
            default -> null;
        };
    }
}
