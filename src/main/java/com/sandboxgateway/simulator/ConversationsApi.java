package com.sandboxgateway.simulator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.sandboxgateway.simulator.SimulatorServer.Route;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/conversations} and their items: create, retrieve, update (metadata), delete; items listed,
 * added, retrieved and deleted. A response created with {@code conversation} adds its input and output here.
 */
final class ConversationsApi {

    private static final int MAX_ITEMS_PER_CALL = 20;

    private final Storage storage;

    ConversationsApi(Storage storage) {
        this.storage = storage;
    }

    List<Route> routes() {
        return List.of(
                Route.of("POST", "/v1/conversations", this::create),
                Route.of("GET", "/v1/conversations/{id}", call -> call.json(storage.conversation(call.path("id")))),
                Route.of("POST", "/v1/conversations/{id}", this::update),
                Route.of("DELETE", "/v1/conversations/{id}", this::delete),
                Route.of("GET", "/v1/conversations/{id}/items",
                        call -> call.json(Pages.page(call, storage.items(call.path("id")), 20, 100))),
                Route.of("POST", "/v1/conversations/{id}/items", this::addItems),
                Route.of("GET", "/v1/conversations/{id}/items/{itemId}",
                        call -> call.json(storage.item(call.path("id"), call.path("itemId")))),
                Route.of("DELETE", "/v1/conversations/{id}/items/{itemId}", this::deleteItem));
    }

    /** The id a response's {@code conversation} names (a string or {@code {"id": ...}}), or {@code null}. */
    static String conversationOf(JsonNode request) {
        JsonNode conversation = request.path("conversation");
        return conversation.isString() ? conversation.asString() : conversation.path("id").asString(null);
    }

    /** Stored items, as OpenAI keeps them, from input items: ids added, string content turned into parts. */
    static List<ObjectNode> items(JsonNode input) {
        List<ObjectNode> items = new ArrayList<>();
        if (input.isString()) {
            items.add(message("user", input.asString()));
            return items;
        }
        for (JsonNode item : input) {
            String type = item.path("type").asString("message");
            if (type.equals("message")) {
                items.add(message(item.path("role").asString("user"), item.path("content")));
            } else if (item instanceof ObjectNode object) {
                ObjectNode copy = object.deepCopy();
                if (!copy.hasNonNull("id")) {
                    copy.put("id", Storage.hexId(type.startsWith("function_call") ? "fc_" : "item_"));
                }
                items.add(copy);
            }
        }
        return items;
    }

    private static ObjectNode message(String role, Object content) {
        ObjectNode message = Call.JSON.createObjectNode().put("type", "message").put("id", Storage.hexId("msg_"))
                .put("status", "completed").put("role", role);
        ArrayNode parts = message.putArray("content");
        String textType = role.equals("assistant") ? "output_text" : "input_text";
        if (content instanceof String text) {
            parts.addObject().put("type", textType).put("text", text);
        } else if (content instanceof JsonNode node && node.isString()) {
            parts.addObject().put("type", textType).put("text", node.asString());
        } else if (content instanceof JsonNode node) {
            node.forEach(part -> parts.add(part.deepCopy()));
        }
        return message;
    }

    private void create(Call call) throws IOException {
        ObjectNode request = call.json();
        JsonNode initial = request.path("items");
        if (initial.size() > MAX_ITEMS_PER_CALL) {
            throw ApiError.invalid("A conversation starts with at most " + MAX_ITEMS_PER_CALL + " items.", "items");
        }
        ObjectNode conversation = Call.JSON.createObjectNode().put("id", Storage.hexId("conv_", 24))
                .put("object", "conversation").put("created_at", storage.now());
        conversation.set("metadata", request.path("metadata").isObject() ? request.path("metadata").deepCopy()
                : Call.JSON.createObjectNode());
        storage.putConversation(conversation);
        storage.addItems(conversation.path("id").asString(), items(initial));
        call.json(conversation);
    }

    private void update(Call call) throws IOException {
        String id = call.path("id");
        ObjectNode request = call.json();
        if (!request.path("metadata").isObject()) {
            throw ApiError.invalid("Missing required parameter: 'metadata'.", "metadata");
        }
        ObjectNode conversation = storage.conversation(id);
        conversation.set("metadata", request.path("metadata").deepCopy());
        storage.putConversation(conversation);
        call.json(conversation);
    }

    private void delete(Call call) throws IOException {
        String id = call.path("id");
        storage.deleteConversation(id);
        call.json(Call.JSON.createObjectNode().put("id", id).put("object", "conversation.deleted").put("deleted", true));
    }

    private void addItems(Call call) throws IOException {
        String id = call.path("id");
        storage.conversation(id);
        JsonNode input = call.json().path("items");
        if (!input.isArray() || input.isEmpty() || input.size() > MAX_ITEMS_PER_CALL) {
            throw ApiError.invalid("'items' must hold 1 to " + MAX_ITEMS_PER_CALL + " items.", "items");
        }
        List<ObjectNode> added = items(input);
        storage.addItems(id, added);
        ObjectNode page = Call.JSON.createObjectNode().put("object", "list");
        ArrayNode data = page.putArray("data");
        added.forEach(data::add);
        page.put("first_id", added.getFirst().path("id").asString()).put("last_id", added.getLast().path("id").asString())
                .put("has_more", false);
        call.json(page);
    }

    private void deleteItem(Call call) throws IOException {
        String id = call.path("id");
        storage.deleteItem(id, call.path("itemId"));
        call.json(storage.conversation(id));
    }
}
