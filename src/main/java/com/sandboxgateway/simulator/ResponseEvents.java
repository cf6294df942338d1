package com.sandboxgateway.simulator;

import java.io.IOException;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A finished response told as OpenAI streams it: {@code response.created}, each code block's item, code
 * deltas and interpreter states, each shell call's commands and output, the message's part, text and
 * citation, {@code response.completed}. Events
 * are spaced by a pause, so a client sees them arrive one by one, as it would from OpenAI.
 */
final class ResponseEvents {

    private final Duration pause;

    /** @param pause the time between two events */
    ResponseEvents(Duration pause) {
        this.pause = pause;
    }

    void stream(Call call, ObjectNode response) throws IOException {
        try (Call.EventStream stream = call.events()) {
            Sequence events = new Sequence(stream);
            ObjectNode started = response.deepCopy().put("status", "in_progress").putNull("completed_at");
            started.putArray("output");
            started.putNull("usage");
            events.send(event("response.created").set("response", started));
            events.send(event("response.in_progress").set("response", started));
            JsonNode output = response.path("output");
            for (int index = 0; index < output.size(); index++) {
                JsonNode item = output.get(index);
                switch (item.path("type").asString()) {
                    case "code_interpreter_call" -> codeCall(events, index, item);
                    case "shell_call" -> shellCall(events, index, item);
                    case "shell_call_output" -> shellCallOutput(events, index, item);
                    default -> message(events, index, item);
                }
            }
            events.send(event("response.completed").set("response", response));
        }
    }

    private void codeCall(Sequence events, int index, JsonNode item) throws IOException {
        String id = item.path("id").asString();
        String code = item.path("code").asString();
        ObjectNode started = ((ObjectNode) item).deepCopy().put("status", "in_progress").put("code", "");
        started.putNull("outputs");
        events.send(event("response.output_item.added").put("output_index", index).set("item", started));
        events.send(ofItem("response.code_interpreter_call.in_progress", index, id));
        int half = code.length() / 2;
        for (String delta : new String[] {code.substring(0, half), code.substring(half)}) {
            events.send(ofItem("response.code_interpreter_call_code.delta", index, id).put("delta", delta));
        }
        events.send(ofItem("response.code_interpreter_call_code.done", index, id).put("code", code));
        events.send(ofItem("response.code_interpreter_call.interpreting", index, id));
        events.send(ofItem("response.code_interpreter_call.completed", index, id));
        events.send(event("response.output_item.done").put("output_index", index).set("item", item));
    }

    /** A shell call: its item, each command added, streamed and done, then the finished item. */
    private void shellCall(Sequence events, int index, JsonNode item) throws IOException {
        ObjectNode started = ((ObjectNode) item).deepCopy().put("status", "in_progress");
        ((ObjectNode) started.path("action")).putArray("commands");
        events.send(event("response.output_item.added").put("output_index", index).set("item", started));
        JsonNode commands = item.path("action").path("commands");
        for (int c = 0; c < commands.size(); c++) {
            String command = commands.get(c).asString();
            events.send(event("response.shell_call_command.added").put("output_index", index).put("command_index", c)
                    .put("command", ""));
            events.send(event("response.shell_call_command.delta").put("output_index", index).put("command_index", c)
                    .put("delta", command));
            events.send(event("response.shell_call_command.done").put("output_index", index).put("command_index", c)
                    .put("command", command));
        }
        events.send(event("response.output_item.done").put("output_index", index).set("item", item));
    }

    /** A shell call's output: each command's stdout and stderr streamed, then its chunk done, then the finished item. */
    private void shellCallOutput(Sequence events, int index, JsonNode item) throws IOException {
        String id = item.path("id").asString();
        ObjectNode started = ((ObjectNode) item).deepCopy().put("status", "in_progress");
        started.putArray("output");
        events.send(event("response.output_item.added").put("output_index", index).set("item", started));
        JsonNode chunks = item.path("output");
        for (int c = 0; c < chunks.size(); c++) {
            JsonNode chunk = chunks.get(c);
            ObjectNode delta = ofItem("response.shell_call_output_content.delta", index, id).put("command_index", c);
            delta.putObject("delta").put("stdout", chunk.path("stdout").asString()).put("stderr", chunk.path("stderr").asString());
            events.send(delta);
            ObjectNode done = ofItem("response.shell_call_output_content.done", index, id).put("command_index", c);
            done.putArray("output").add(chunk.deepCopy());
            events.send(done);
        }
        events.send(event("response.output_item.done").put("output_index", index).set("item", item));
    }

    private void message(Sequence events, int index, JsonNode item) throws IOException {
        String id = item.path("id").asString();
        ObjectNode started = ((ObjectNode) item).deepCopy().put("status", "in_progress");
        started.putArray("content");
        events.send(event("response.output_item.added").put("output_index", index).set("item", started));
        JsonNode part = item.path("content").path(0);
        ObjectNode emptyPart = Call.JSON.createObjectNode().put("type", "output_text").put("text", "");
        emptyPart.putArray("annotations");
        emptyPart.putArray("logprobs");
        events.send(ofPart("response.content_part.added", index, id).set("part", emptyPart));
        ObjectNode delta = ofPart("response.output_text.delta", index, id).put("delta", part.path("text").asString());
        delta.putArray("logprobs");
        events.send(delta);
        ArrayNode annotations = (ArrayNode) part.path("annotations");
        for (int a = 0; a < annotations.size(); a++) {
            events.send(ofPart("response.output_text.annotation.added", index, id).put("annotation_index", a)
                    .set("annotation", annotations.get(a)));
        }
        ObjectNode done = ofPart("response.output_text.done", index, id).put("text", part.path("text").asString());
        done.putArray("logprobs");
        events.send(done);
        events.send(ofPart("response.content_part.done", index, id).set("part", part));
        events.send(event("response.output_item.done").put("output_index", index).set("item", item));
    }

    private static ObjectNode event(String type) {
        return Call.JSON.createObjectNode().put("type", type);
    }

    private static ObjectNode ofItem(String type, int index, String itemId) {
        return event(type).put("output_index", index).put("item_id", itemId);
    }

    private static ObjectNode ofPart(String type, int index, String itemId) {
        return ofItem(type, index, itemId).put("content_index", 0);
    }

    /** Numbers the events and spaces them. */
    private final class Sequence {

        private final Call.EventStream stream;
        private long next;

        Sequence(Call.EventStream stream) {
            this.stream = stream;
        }

        void send(ObjectNode event) throws IOException {
            if (next > 0) {
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while streaming", e);
                }
            }
            event.put("sequence_number", next++);
            stream.send(event);
        }
    }
}
