package com.sandboxgateway.openai;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * A response object as an answer shows it: a created, fetched or cancelled response, or the one a stream
 * event carries.
 *
 * @param json the response as received, for what the view does not name
 */
public record ResponseView(String id, String status, String model, Usage usage, List<OutputItem> output, JsonNode json) {

    /** The tokens a finished response used; zero where the answer does not say. */
    public record Usage(long inputTokens, long outputTokens) {
    }

    public ResponseView {
        output = List.copyOf(output);
    }

    public static ResponseView of(JsonNode response) {
        List<OutputItem> output = new ArrayList<>();
        for (JsonNode item : response.path("output")) {
            output.add(OutputItem.of(item));
        }
        JsonNode usage = response.path("usage");
        return new ResponseView(OutputItem.text(response, "id"), OutputItem.text(response, "status"),
                OutputItem.text(response, "model"),
                new Usage(usage.path("input_tokens").asLong(0), usage.path("output_tokens").asLong(0)), output, response);
    }

    /** Whether the response will not execute anything more ({@code completed}, {@code failed}, {@code incomplete}, {@code cancelled}). */
    public boolean finished() {
        return status != null && OpenAiFormat.FINISHED_RESPONSE.contains(status);
    }

    /** How many turns the output holds: its code-interpreter and shell calls. */
    public int turns() {
        return (int) output.stream().filter(item -> item.kind().turn()).count();
    }

    /** The output items of one kind, in order. */
    public List<OutputItem> output(ItemKind kind) {
        return output.stream().filter(item -> item.is(kind)).toList();
    }
}
