package com.sandboxgateway.ownership;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.upstream.SseEvent;

import tools.jackson.databind.JsonNode;

/**
 * Records the owner of every object an answer creates (uploads, containers, container files,
 * responses with their output items, the containers they start and the container files they cite,
 * streamed or not, conversations
 * and their items, skills) and marks objects deleted when a delete
 * succeeds. It runs before the client sees the answer, so an id is never usable before it is owned.
 */
public final class OwnershipRecorder implements ResponseInspector {

    private static final Set<Route> INSPECTED = Set.of(Route.RESPONSES_CREATE, Route.RESPONSE_GET, Route.RESPONSE_CANCEL,
            Route.FILES_UPLOAD, Route.CONTAINERS_CREATE, Route.CONTAINER_FILES_CREATE, Route.RESPONSE_DELETE,
            Route.FILE_DELETE, Route.CONTAINER_DELETE, Route.CONTAINER_FILE_DELETE, Route.CONVERSATIONS_CREATE,
            Route.CONVERSATION_DELETE, Route.CONVERSATION_ITEMS_CREATE, Route.CONVERSATION_ITEMS_LIST,
            Route.CONVERSATION_ITEM_GET, Route.CONVERSATION_ITEM_DELETE, Route.SKILLS_CREATE, Route.SKILL_DELETE);

    private final OwnershipStore store;

    public OwnershipRecorder(OwnershipStore store) {
        this.store = store;
    }

    @Override
    public boolean inspects(Route route) {
        return INSPECTED.contains(route);
    }

    @Override
    public JsonNode onJson(Exchange exchange, JsonNode body) {
        List<OwnershipStore.Created> created = new ArrayList<>();
        switch (exchange.route().route()) {
            case RESPONSES_CREATE, RESPONSE_GET, RESPONSE_CANCEL -> recordResponse(exchange, body, created);
            case FILES_UPLOAD -> add(exchange, body.get("id"), ObjectKind.FILE, null, epochSeconds(body.get("expires_at")), created);
            case CONTAINERS_CREATE -> add(exchange, body.get("id"), ObjectKind.CONTAINER, null, null, created);
            case CONTAINER_FILES_CREATE ->
                    add(exchange, body.get("id"), ObjectKind.CONTAINER_FILE, exchange.route().id("container_id"), null, created);
            case RESPONSE_DELETE -> store.markDeleted(exchange.route().id("response_id"));
            case FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONTAINER_DELETE -> store.markDeleted(exchange.route().id("container_id"));
            case CONTAINER_FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONVERSATIONS_CREATE -> add(exchange, body.get("id"), ObjectKind.CONVERSATION, null, null, created);
            case CONVERSATION_DELETE -> store.markDeleted(exchange.route().id("conversation_id"));
            // The conversation is the caller's (checked before), so the items read or added in it are too.
            case CONVERSATION_ITEMS_CREATE, CONVERSATION_ITEMS_LIST -> {
                for (JsonNode item : body.path("data")) {
                    recordItem(exchange, item, exchange.route().id("conversation_id"), created);
                }
            }
            case CONVERSATION_ITEM_GET -> recordItem(exchange, body, exchange.route().id("conversation_id"), created);
            case CONVERSATION_ITEM_DELETE -> store.markDeleted(exchange.route().id("item_id"));
            case SKILLS_CREATE -> add(exchange, body.get("id"), ObjectKind.SKILL, null, null, created);
            case SKILL_DELETE -> store.markDeleted(exchange.route().id("skill_id"));
            default -> { }
        }
        store.recordAll(exchange.principal(), created);
        return body;
    }

    @Override
    public void onEvent(Exchange exchange, SseEvent event, JsonNode data) {
        if (data == null) {
            return;
        }
        List<OwnershipStore.Created> created = new ArrayList<>();
        JsonNode response = data.get("response");
        if (response != null) {
            recordResponse(exchange, response, created);
        }
        JsonNode item = data.get("item");
        if (item != null) {
            recordItem(exchange, item, exchange.responseId(), created);
        }
        store.recordAll(exchange.principal(), created);
    }

    private void recordResponse(Exchange exchange, JsonNode response, List<OwnershipStore.Created> created) {
        JsonNode id = response.get("id");
        add(exchange, id, ObjectKind.RESPONSE, null, null, created);
        for (JsonNode item : response.path("output")) {
            recordItem(exchange, item, id == null ? null : id.asString(null), created);
        }
    }

    /**
     * An output item (message, tool call, reasoning, ...) is the caller's, so only they can replay or
     * reference it; a code-interpreter call in an auto container (a shell call names it in {@code environment})
     * started that container for them, and the container files a message cites were made by that code for
     * them, so replaying the message works for them alone.
     */
    private void recordItem(Exchange exchange, JsonNode item, String parentId, List<OwnershipStore.Created> created) {
        add(exchange, item.get("id"), ObjectKind.ITEM, parentId, null, created);
        add(exchange, item.get("container_id"), ObjectKind.CONTAINER, null, null, created);
        add(exchange, item.path("environment").get("container_id"), ObjectKind.CONTAINER, null, null, created);
        for (JsonNode part : item.path("content")) {
            for (JsonNode annotation : part.path("annotations")) {
                if ("container_file_citation".equals(annotation.path("type").asString(null))) {
                    add(exchange, annotation.get("file_id"), ObjectKind.CONTAINER_FILE,
                            annotation.path("container_id").asString(null), null, created);
                }
            }
        }
    }

    /**
     * Adds an id to those the answer (or event) created, once per exchange: a stream names the same response and
     * container in many events. All of them are recorded together, in one statement.
     */
    private static void add(Exchange exchange, JsonNode id, ObjectKind kind, String parentId, Instant expiresAt,
                            List<OwnershipStore.Created> created) {
        if (id != null && id.isString() && !id.asString().isBlank() && exchange.firstOwnershipOf(id.asString())) {
            created.add(new OwnershipStore.Created(id.asString(), kind, parentId, expiresAt));
        }
    }

    private static Instant epochSeconds(JsonNode value) {
        return value != null && value.isNumber() ? Instant.ofEpochSecond(value.asLong()) : null;
    }
}
