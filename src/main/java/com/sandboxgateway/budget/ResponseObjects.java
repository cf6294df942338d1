package com.sandboxgateway.budget;

import java.util.Set;

import tools.jackson.databind.JsonNode;

/** What the budgets read from OpenAI response objects and stream events. */
final class ResponseObjects {

    /** A response in one of these states will not execute anything more. */
    private static final Set<String> TERMINAL = Set.of("completed", "failed", "incomplete", "cancelled");
    /** Stream events that carry the finished response. */
    private static final Set<String> TERMINAL_EVENTS = Set.of("response.completed", "response.failed", "response.incomplete");
    /** Output items that are a turn: one code block or one shell call executed in a container. */
    private static final Set<String> TURN_ITEMS = Set.of("code_interpreter_call", "shell_call");
    private static final Set<String> TURN_TOOLS = Set.of("code_interpreter", "shell");

    private ResponseObjects() {
    }

    static boolean isTerminal(JsonNode response) {
        return TERMINAL.contains(response.path("status").asString(""));
    }

    /** The finished response a stream event carries, or {@code null}. */
    static JsonNode terminalResponse(JsonNode event) {
        return event != null && TERMINAL_EVENTS.contains(event.path("type").asString("")) ? event.get("response") : null;
    }

    /** How many code-interpreter and shell calls the response's output holds: the turns it took. */
    static int toolTurns(JsonNode response) {
        int calls = 0;
        for (JsonNode item : response.path("output")) {
            if (TURN_ITEMS.contains(item.path("type").asString(""))) {
                calls++;
            }
        }
        return calls;
    }

    /** Whether a request may run code or commands in a container: it offers {@code code_interpreter} or {@code shell}. */
    static boolean offersCodeExecution(JsonNode request) {
        for (JsonNode tool : request.path("tools")) {
            if (TURN_TOOLS.contains(tool.path("type").asString(""))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The container a request's code or commands run in, when it names one ({@code code_interpreter}'s
     * {@code container} id, a shell's {@code container_reference}); else {@code null}.
     */
    static String namedContainer(JsonNode request) {
        for (JsonNode tool : request.path("tools")) {
            String type = tool.path("type").asString("");
            if (type.equals("code_interpreter") && tool.path("container").isString()) {
                return tool.path("container").asString();
            }
            if (type.equals("shell") && "container_reference".equals(tool.path("environment").path("type").asString(null))) {
                return tool.path("environment").path("container_id").asString(null);
            }
        }
        return null;
    }

    /**
     * The memory tier of the auto container a request's tools ask for ({@code code_interpreter}'s
     * {@code container: {type: auto}}, a shell's {@code container_auto}), or {@code null}.
     */
    static String autoContainerTier(JsonNode tools) {
        for (JsonNode tool : tools) {
            String type = tool.path("type").asString("");
            JsonNode container = type.equals("code_interpreter") ? tool.path("container")
                    : type.equals("shell") && "container_auto".equals(tool.path("environment").path("type").asString(null))
                    ? tool.path("environment") : null;
            if (container != null && container.isObject()) {
                return container.path("memory_limit").asString(null);
            }
        }
        return null;
    }

    /** The container an executed call ran in: a code call's {@code container_id}, a shell call's environment's. */
    static String containerOf(JsonNode item) {
        return switch (item.path("type").asString("")) {
            case "code_interpreter_call" -> item.path("container_id").asString(null);
            case "shell_call" -> item.path("environment").path("container_id").asString(null);
            default -> null;
        };
    }
}
