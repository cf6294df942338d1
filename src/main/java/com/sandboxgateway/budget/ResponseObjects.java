package com.sandboxgateway.budget;

import java.util.Set;

import tools.jackson.databind.JsonNode;

/** What the budgets read from OpenAI response objects and stream events. */
final class ResponseObjects {

    /** A response in one of these states will not execute anything more. */
    private static final Set<String> TERMINAL = Set.of("completed", "failed", "incomplete", "cancelled");
    /** Stream events that carry the finished response. */
    private static final Set<String> TERMINAL_EVENTS = Set.of("response.completed", "response.failed", "response.incomplete");

    private ResponseObjects() {
    }

    static boolean isTerminal(JsonNode response) {
        return TERMINAL.contains(response.path("status").asString(""));
    }

    /** The finished response a stream event carries, or {@code null}. */
    static JsonNode terminalResponse(JsonNode event) {
        return event != null && TERMINAL_EVENTS.contains(event.path("type").asString("")) ? event.get("response") : null;
    }

    /** How many code-interpreter calls the response's output holds: the turns it took. */
    static int codeCalls(JsonNode response) {
        int calls = 0;
        for (JsonNode item : response.path("output")) {
            if ("code_interpreter_call".equals(item.path("type").asString(null))) {
                calls++;
            }
        }
        return calls;
    }

    /** Whether a request may run code: it offers the {@code code_interpreter} tool. */
    static boolean offersCodeInterpreter(JsonNode request) {
        for (JsonNode tool : request.path("tools")) {
            if ("code_interpreter".equals(tool.path("type").asString(null))) {
                return true;
            }
        }
        return false;
    }
}
