package com.sandboxgateway.ownership;

import java.time.Instant;

import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;

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
    public void inspect(Exchange exchange, Answer answer) {
        if (answer.isEvent()) {
            answer.response().ifPresent(response -> recordResponse(exchange, response));
            answer.item().ifPresent(item -> recordItem(exchange, item, exchange.responseId()));
            return;
        }
        JsonNode body = answer.json();
        switch (exchange.route().route()) {
            case RESPONSES_CREATE, RESPONSE_GET, RESPONSE_CANCEL -> answer.response().ifPresent(response -> recordResponse(exchange, response));
            case FILES_UPLOAD -> record(exchange, text(body, "id"), ObjectKind.FILE, null, epochSeconds(body.get("expires_at")));
            case CONTAINERS_CREATE -> record(exchange, text(body, "id"), ObjectKind.CONTAINER, null, null);
            case CONTAINER_FILES_CREATE ->
                    record(exchange, text(body, "id"), ObjectKind.CONTAINER_FILE, exchange.route().id("container_id"), null);
            case RESPONSE_DELETE -> store.markDeleted(exchange.route().id("response_id"));
            case FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONTAINER_DELETE -> store.markDeleted(exchange.route().id("container_id"));
            case CONTAINER_FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONVERSATIONS_CREATE -> record(exchange, text(body, "id"), ObjectKind.CONVERSATION, null, null);
            case CONVERSATION_DELETE -> store.markDeleted(exchange.route().id("conversation_id"));
            // The conversation is the caller's (checked before), so the items read or added in it are too.
            case CONVERSATION_ITEMS_CREATE, CONVERSATION_ITEMS_LIST -> {
                for (JsonNode item : body.path("data")) {
                    recordItem(exchange, OutputItem.of(item), exchange.route().id("conversation_id"));
                }
            }
            case CONVERSATION_ITEM_GET -> recordItem(exchange, OutputItem.of(body), exchange.route().id("conversation_id"));
            case CONVERSATION_ITEM_DELETE -> store.markDeleted(exchange.route().id("item_id"));
            default -> { }
        }
    }

    private void recordResponse(Exchange exchange, ResponseView response) {
        record(exchange, response.id(), ObjectKind.RESPONSE, null, null);
        for (OutputItem item : response.output()) {
            recordItem(exchange, item, response.id());
        }
    }

    /**
     * An output item (message, tool call, reasoning, ...) is the caller's, so only they can replay or
     * reference it; a code-interpreter call in an auto container started that container for them, and the
     * container files a message cites were made by that code for them, so replaying the message works for
     * them alone.
     */
    private void recordItem(Exchange exchange, OutputItem item, String parentId) {
        record(exchange, item.id(), ObjectKind.ITEM, parentId, null);
        record(exchange, item.containerId(), ObjectKind.CONTAINER, null, null);
        for (OutputItem.CitedFile cited : item.citedContainerFiles()) {
            record(exchange, cited.fileId(), ObjectKind.CONTAINER_FILE, cited.containerId(), null);
        }
    }

    /** Records an id once per exchange: a stream names the same response and container in many events. */
    private void record(Exchange exchange, String id, ObjectKind kind, String parentId, Instant expiresAt) {
        if (id != null && !id.isBlank() && exchange.firstOwnershipOf(id)) {
            store.record(id, kind, exchange.principal(), parentId, expiresAt);
        }
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }

    private static Instant epochSeconds(JsonNode value) {
        return value != null && value.isNumber() ? Instant.ofEpochSecond(value.asLong()) : null;
    }
}
