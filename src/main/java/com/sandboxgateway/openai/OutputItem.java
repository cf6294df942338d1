package com.sandboxgateway.openai;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * One output item of a response, or of a stream's {@code response.output_item.*} event.
 *
 * @param containerId the container the item ran in: a code call's {@code container_id}, a shell call's
 *        {@code environment.container_id}; {@code null} when the item names none
 * @param json the item as received, for what the view does not name
 */
public record OutputItem(ItemKind kind, String id, String status, String containerId, JsonNode json) {

    public static OutputItem of(JsonNode item) {
        ItemKind kind = ItemKind.of(item.path("type").asString(null));
        String containerId = kind == ItemKind.SHELL_CALL ? text(item.path("environment"), "container_id")
                : text(item, "container_id");
        return new OutputItem(kind, text(item, "id"), text(item, "status"), containerId, item);
    }

    public boolean is(ItemKind expected) {
        return kind == expected;
    }

    /** Whether the call ran to an end ({@code completed}, {@code failed}, {@code incomplete}). */
    public boolean finished() {
        return status != null && OpenAiFormat.FINISHED_CALL.contains(status);
    }

    /** The model's {@code call_id}, which ties a shell call to its output; {@code null} when the item has none. */
    public String callId() {
        return text(json, "call_id");
    }

    /** A code-interpreter call's code; empty when it has none. */
    public String code() {
        return json.path("code").asString("");
    }

    /** The text of each {@code logs} output of a code-interpreter call, in order; images and other outputs are left out. */
    public List<String> logs() {
        List<String> logs = new ArrayList<>();
        for (JsonNode output : json.path("outputs")) {
            if ("logs".equals(output.path("type").asString(null))) {
                logs.add(output.path("logs").asString(""));
            }
        }
        return logs;
    }

    /** A container file a message cites ({@code container_file_citation}); either id may be {@code null}. */
    public record CitedFile(String fileId, String containerId) {
    }

    /** The container files a message cites. */
    public List<CitedFile> citedContainerFiles() {
        List<CitedFile> cited = new ArrayList<>();
        for (JsonNode part : json.path("content")) {
            for (JsonNode annotation : part.path("annotations")) {
                if ("container_file_citation".equals(annotation.path("type").asString(null))) {
                    cited.add(new CitedFile(text(annotation, "file_id"), text(annotation, "container_id")));
                }
            }
        }
        return cited;
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }
}
