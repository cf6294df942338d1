package com.sandboxgateway.support;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
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

    /** The response told as OpenAI streams a shell call: items added and done, commands, output, completed. */
    public static String streamed(ObjectNode response) {
        StringBuilder sse = new StringBuilder();
        int[] sequence = {0};
        Consumer<ObjectNode> send = event -> sse.append("event: ").append(event.path("type").asString())
                .append("\ndata: ").append(event.put("sequence_number", sequence[0]++)).append("\n\n");
        ObjectNode started = response.deepCopy().put("status", "in_progress");
        started.putArray("output");
        send.accept(event("response.created").set("response", started));
        JsonNode output = response.path("output");
        for (int i = 0; i < output.size(); i++) {
            JsonNode item = output.get(i);
            send.accept(event("response.output_item.added").put("output_index", i).set("item", item));
            for (int c = 0; c < item.path("action").path("commands").size(); c++) {
                send.accept(event("response.shell_call_command.done").put("output_index", i).put("command_index", c)
                        .put("command", item.path("action").path("commands").get(c).asString()));
            }
            for (int c = 0; c < item.path("output").size(); c++) {
                ObjectNode done = event("response.shell_call_output_content.done").put("output_index", i)
                        .put("item_id", item.path("id").asString()).put("command_index", c);
                done.putArray("output").add(item.path("output").get(c));
                send.accept(done);
            }
            send.accept(event("response.output_item.done").put("output_index", i).set("item", item));
        }
        send.accept(event("response.completed").set("response", response));
        return sse.toString();
    }

    private static ObjectNode event(String type) {
        return JSON.createObjectNode().put("type", type);
    }
}
