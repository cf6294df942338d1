package com.sandboxgateway.ownership;

import java.time.Instant;
import java.util.Set;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.upstream.SseEvent;

import tools.jackson.databind.JsonNode;

/**
 * Records the owner of every object an answer creates (uploads, containers, container files,
 * responses and the containers they start, streamed or not) and marks objects deleted when a delete
 * succeeds. It runs before the client sees the answer, so an id is never usable before it is owned.
 */
public final class OwnershipRecorder implements ResponseInspector {

    private static final Set<Route> INSPECTED = Set.of(Route.RESPONSES_CREATE, Route.RESPONSE_GET, Route.RESPONSE_CANCEL,
            Route.FILES_UPLOAD, Route.CONTAINERS_CREATE, Route.CONTAINER_FILES_CREATE, Route.RESPONSE_DELETE,
            Route.FILE_DELETE, Route.CONTAINER_DELETE, Route.CONTAINER_FILE_DELETE);

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
        Principal owner = exchange.principal();
        switch (exchange.route().route()) {
            case RESPONSES_CREATE, RESPONSE_GET, RESPONSE_CANCEL -> recordResponse(body, owner);
            case FILES_UPLOAD -> record(body.get("id"), ObjectKind.FILE, owner, null, epochSeconds(body.get("expires_at")));
            case CONTAINERS_CREATE -> record(body.get("id"), ObjectKind.CONTAINER, owner, null, null);
            case CONTAINER_FILES_CREATE ->
                    record(body.get("id"), ObjectKind.CONTAINER_FILE, owner, exchange.route().id("container_id"), null);
            case RESPONSE_DELETE -> store.markDeleted(exchange.route().id("response_id"));
            case FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
            case CONTAINER_DELETE -> store.markDeleted(exchange.route().id("container_id"));
            case CONTAINER_FILE_DELETE -> store.markDeleted(exchange.route().id("file_id"));
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
            recordResponse(response, exchange.principal());
        }
        JsonNode item = data.get("item");
        if (item != null) {
            recordContainerOf(item, exchange.principal());
        }
    }

    private void recordResponse(JsonNode response, Principal owner) {
        record(response.get("id"), ObjectKind.RESPONSE, owner, null, null);
        for (JsonNode item : response.path("output")) {
            recordContainerOf(item, owner);
        }
    }

    /** A code-interpreter call in an auto container started that container for this caller. */
    private void recordContainerOf(JsonNode item, Principal owner) {
        record(item.get("container_id"), ObjectKind.CONTAINER, owner, null, null);
    }

    private void record(JsonNode id, ObjectKind kind, Principal owner, String parentId, Instant expiresAt) {
        if (id != null && id.isString() && !id.asString().isBlank()) {
            store.record(id.asString(), kind, owner, parentId, expiresAt);
        }
    }

    private static Instant epochSeconds(JsonNode value) {
        return value != null && value.isNumber() ? Instant.ofEpochSecond(value.asLong()) : null;
    }
}
