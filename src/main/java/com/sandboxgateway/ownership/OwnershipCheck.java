package com.sandboxgateway.ownership;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.input.InputPlaces;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Refuses any request that names an object the caller may not see, in the path or in the body, with
 * the same 404 an unknown id gets: existence is never revealed.
 */
public final class OwnershipCheck implements RequestStep {

    private final Ownership ownership;

    public OwnershipCheck(Ownership ownership) {
        this.ownership = ownership;
    }

    @Override
    public Decision apply(Exchange exchange) {
        List<Reference> references = references(exchange);
        if (!references.isEmpty()) {
            // One look-up for all of them: a replayed conversation names hundreds of items.
            Set<String> visible = ownership.visibleIds(references.stream().map(Reference::id).distinct().toList(),
                    exchange.principal());
            for (Reference reference : references) {
                if (!visible.contains(reference.id())) {
                    return Decision.reject(ErrorCode.NOT_FOUND, notFoundMessage(reference), reference.param());
                }
            }
        }
        if (exchange.route().route() == Route.CONTAINER_FILES_CREATE && exchange.body() instanceof RequestBody.Multipart multipart) {
            // The SDKs send a container file's file_id as a form field; check it as it passes.
            multipart.upload().onField("file_id", id -> {
                Reference reference = new Reference(id, ObjectKind.FILE, "file_id");
                if (ownership.visible(id, exchange.principal()).isEmpty()) {
                    throw new GatewayException(ErrorCode.NOT_FOUND, notFoundMessage(reference), "file_id", null);
                }
                return id;
            });
        }
        return Decision.PROCEED;
    }

    private static String notFoundMessage(Reference reference) {
        return "No such " + reference.kind().displayName() + " object: " + reference.id();
    }

    /** Every object id a request names, with where it was named. */
    static List<Reference> references(Exchange exchange) {
        RouteMatch route = exchange.route();
        ObjectNode body = exchange.json();
        List<Reference> references = new ArrayList<>();
        switch (route.route()) {
            case RESPONSE_GET, RESPONSE_DELETE, RESPONSE_CANCEL ->
                    references.add(new Reference(route.id("response_id"), ObjectKind.RESPONSE, "response_id"));
            case FILE_GET, FILE_CONTENT, FILE_DELETE ->
                    references.add(new Reference(route.id("file_id"), ObjectKind.FILE, "file_id"));
            case CONTAINER_GET, CONTAINER_DELETE, CONTAINER_FILES_LIST, CONTAINER_FILE_GET, CONTAINER_FILE_CONTENT,
                 CONTAINER_FILE_DELETE -> references.add(new Reference(route.id("container_id"), ObjectKind.CONTAINER, "container_id"));
            case CONTAINER_FILES_CREATE -> {
                references.add(new Reference(route.id("container_id"), ObjectKind.CONTAINER, "container_id"));
                addText(references, body == null ? null : body.get("file_id"), ObjectKind.FILE, "file_id");
            }
            // The items of a conversation are reached through it: owning the conversation is what counts.
            case CONVERSATION_GET, CONVERSATION_UPDATE, CONVERSATION_DELETE, CONVERSATION_ITEMS_LIST, CONVERSATION_ITEMS_CREATE,
                 CONVERSATION_ITEM_GET, CONVERSATION_ITEM_DELETE -> {
                references.add(new Reference(route.id("conversation_id"), ObjectKind.CONVERSATION, "conversation_id"));
                bodyReferences(references, exchange);
            }
            // A skill's versions and contents are reached through it: owning the skill is what counts.
            case SKILL_GET, SKILL_UPDATE, SKILL_DELETE, SKILL_CONTENT, SKILL_VERSIONS_CREATE, SKILL_VERSIONS_LIST, SKILL_VERSION_GET,
                 SKILL_VERSION_DELETE, SKILL_VERSION_CONTENT ->
                    references.add(new Reference(route.id("skill_id"), ObjectKind.SKILL, "skill_id"));
            case RESPONSES_CREATE, CONTAINERS_CREATE, CONVERSATIONS_CREATE -> bodyReferences(references, exchange);
            case FILES_UPLOAD, FILES_LIST, CONTAINERS_LIST, SKILLS_CREATE, SKILLS_LIST -> { }
        }
        return references;
    }

    /** The ids the request walk found in a body that carries model input. */
    private static void bodyReferences(List<Reference> references, Exchange exchange) {
        for (InputPlaces.ObjectId id : exchange.inputs().ids()) {
            references.add(new Reference(id.id(), kind(id.kind()), id.path()));
        }
    }

    private static ObjectKind kind(InputPlaces.Kind kind) {
        return switch (kind) {
            case FILE -> ObjectKind.FILE;
            case CONTAINER -> ObjectKind.CONTAINER;
            case CONTAINER_FILE -> ObjectKind.CONTAINER_FILE;
            case RESPONSE -> ObjectKind.RESPONSE;
            case ITEM -> ObjectKind.ITEM;
            case CONVERSATION -> ObjectKind.CONVERSATION;
        };
    }

    private static void addText(List<Reference> references, JsonNode id, ObjectKind kind, String param) {
        if (id != null && id.isString()) {
            references.add(new Reference(id.asString(), kind, param));
        }
    }

    /** An object id named by a request, and where (a path variable or a body field). */
    record Reference(String id, ObjectKind kind, String param) {
    }
}
