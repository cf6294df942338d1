package com.sandboxgateway.support;

import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Responses as OpenAI answers a hosted shell call: the {@code shell_call}, its {@code shell_call_output} (one
 * chunk per command) and the model's closing message, all with ids derived from the call's, so each test's
 * answer is its own.
 */
public final class ShellAnswers {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ShellAnswers() {
    }

    /** What one command printed and how it exited. */
    public record Ran(String stdout, String stderr, int exitCode) {
    }

    /** A completed response {@code id} whose shell call {@code call} ran {@code commands} in {@code container}. */
    public static ObjectNode completed(String id, String call, String container, List<String> commands, List<Ran> ran) {
        ObjectNode response = JSON.createObjectNode().put("id", id).put("object", "response").put("created_at", 1_764_590_000)
                .put("status", "completed").put("model", "gpt-5.1-2025-11-13").put("parallel_tool_calls", true)
                .put("tool_choice", "auto").put("temperature", 1.0).put("top_p", 1.0);
        response.putNull("error");
        response.putNull("incomplete_details");
        response.putNull("instructions");
        response.putObject("metadata");
        response.putArray("tools").addObject().put("type", "shell");
        var output = response.putArray("output");
        output.add(JSON.valueToTree(Map.of("type", "shell_call", "id", call, "call_id", "call_" + call, "status", "completed",
                "action", Map.of("commands", commands, "timeout_ms", 60_000, "max_output_length", 4096),
                "environment", Map.of("type", "container_reference", "container_id", container))));
        output.add(JSON.valueToTree(Map.of("type", "shell_call_output", "id", "sho_" + call, "call_id", "call_" + call,
                "status", "completed", "max_output_length", 4096, "output", ran.stream().map(each -> Map.of("stdout", each.stdout(),
                        "stderr", each.stderr(), "outcome", Map.of("type", "exit", "exit_code", each.exitCode()))).toList())));
        ObjectNode message = output.addObject().put("type", "message").put("id", "msg_" + call).put("status", "completed")
                .put("role", "assistant");
        message.putArray("content").addObject().put("type", "output_text").put("text", "The folder is empty.").putArray("annotations");
        response.putObject("usage").put("input_tokens", 100).put("output_tokens", 20).put("total_tokens", 120);
        return response;
    }
}
