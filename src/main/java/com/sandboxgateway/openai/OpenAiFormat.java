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
    /** What {@code include} names to get a code-interpreter call's printed outputs. */
    public static final String CODE_OUTPUTS_INCLUDE = "code_interpreter_call.outputs";

    /** A response in one of these states will not execute anything more. */
    public static final Set<String> FINISHED_RESPONSE = Set.of("completed", "failed", "incomplete", "cancelled");
    /** A tool call in one of these states ran to an end. */
    public static final Set<String> FINISHED_CALL = Set.of("completed", "failed", "incomplete");

    public static final String RESPONSE_CREATED = "response.created";
    public static final String OUTPUT_ITEM_ADDED = "response.output_item.added";
    public static final String OUTPUT_ITEM_DONE = "response.output_item.done";
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

    /** The auto container (the {@code container} object) of the first code-interpreter tool that has one, or {@code null}. */
    public static JsonNode autoContainer(JsonNode tools) {
        return codeInterpreterTools(tools).stream().map(tool -> tool.path("container")).filter(JsonNode::isObject)
                .findFirst().orElse(null);
    }
}
