package com.sandboxgateway.ownership;

import java.time.Instant;

import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.upstream.SseEvent;

import tools.jackson.databind.JsonNode;

/**
 * Records the owner of every object an answer creates (uploads, containers, container files,
 * responses with their output items, the containers they start and the container files they cite,
 * streamed or not, conversations
 * and their items) and marks objects deleted when a delete
 * succeeds. It runs before the client sees the answer, so an id is never usable before it is owned.
 */
public final class OwnershipRecorder implements ResponseInspector {


    private final OwnershipStore store;

    public OwnershipRecorder(OwnershipStore store) {
        this.store = store;
    }


    @Override
    public JsonNode onJson(Exchange exchange, JsonNode body) {
        switch (exchange.route().route()) {
            case RESPONSES_CREATE, RESPONSE_GET, RESPONSE_CANCEL -> recordResponse(exchange, body);
            case FILES_UPLOAD -> record(exchange, body.get("id"), ObjectKind.FILE, null, epochSeconds(body.get("expires_at")));
            case CONTAINERS_CREATE -> record(exchange, body.get("id"), ObjectKind.CONTAINER, null, null);
            case CONTAINER_FILES_CREATE ->
                    record(exchange, body.get("id"), ObjectKind.CONTAINER_FILE, exchange.route().id("container_id"), null);
            case RESPONSE_DELETE -> store.markDeleted(exchange.route().id("response_id"));
            case FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONTAINER_DELETE -> store.markDeleted(exchange.route().id("container_id"));
            case CONTAINER_FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONVERSATIONS_CREATE -> record(exchange, body.get("id"), ObjectKind.CONVERSATION, null, null);
            case CONVERSATION_DELETE -> store.markDeleted(exchange.route().id("conversation_id"));
            // The conversation is the caller's (checked before), so the items read or added in it are too.
            case CONVERSATION_ITEMS_CREATE, CONVERSATION_ITEMS_LIST -> {
                for (JsonNode item : body.path("data")) {
                    recordItem(exchange, item, exchange.route().id("conversation_id"));
                }
            }
            case CONVERSATION_ITEM_GET -> recordItem(exchange, body, exchange.route().id("conversation_id"));
            case CONVERSATION_ITEM_DELETE -> store.markDeleted(exchange.route().id("item_id"));
            default -> { }
        }
        return body;
    }

    @Override
    public void onEvent(Exchange exchange, SseEvent event, JsonNode data) {
        if (data == null) {
            return;
        }
        JsonNode response = data.get("response");
        if (response != null) {
            recordResponse(exchange, response);
        }
        JsonNode item = data.get("item");
        if (item != null) {
            recordItem(exchange, item, exchange.responseId());
        }
    }

    private void recordResponse(Exchange exchange, JsonNode response) {
        JsonNode id = response.get("id");
        record(exchange, id, ObjectKind.RESPONSE, null, null);
        for (JsonNode item : response.path("output")) {
            recordItem(exchange, item, id == null ? null : id.asString(null));
        }
    }

    /**
     * An output item (message, tool call, reasoning, ...) is the caller's, so only they can replay or
     * reference it; a code-interpreter call in an auto container started that container for them, and the
     * container files a message cites were made by that code for them, so replaying the message works for
     * them alone.
     */
    private void recordItem(Exchange exchange, JsonNode item, String parentId) {
        record(exchange, item.get("id"), ObjectKind.ITEM, parentId, null);
        record(exchange, item.get("container_id"), ObjectKind.CONTAINER, null, null);
        for (JsonNode part : item.path("content")) {
            for (JsonNode annotation : part.path("annotations")) {
                if ("container_file_citation".equals(annotation.path("type").asString(null))) {
                    record(exchange, annotation.get("file_id"), ObjectKind.CONTAINER_FILE,
                            annotation.path("container_id").asString(null), null);
                }
            }
        }
    }

    /** Records an id once per exchange: a stream names the same response and container in many events. */
    private void record(Exchange exchange, JsonNode id, ObjectKind kind, String parentId, Instant expiresAt) {
        if (id != null && id.isString() && !id.asString().isBlank() && exchange.firstOwnershipOf(id.asString())) {
            store.record(id.asString(), kind, exchange.principal(), parentId, expiresAt);
        }
    }

    private static Instant epochSeconds(JsonNode value) {
        return value != null && value.isNumber() ? Instant.ofEpochSecond(value.asLong()) : null;
    }
}
