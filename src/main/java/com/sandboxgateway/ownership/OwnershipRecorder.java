package com.sandboxgateway.ownership;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.policy.Settlement;
import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.GroupCommit;

import tools.jackson.databind.JsonNode;

/**
 * Records the owner of every object an answer creates (uploads, containers, container files,
 * responses with their output items, the containers they start and the container files they cite,
 * streamed or not, conversations
 * and their items, skills) and marks objects deleted when a delete
 * succeeds. The rows are written with the answer's other writes: before the client sees a JSON answer; for a stream,
 * a response's row right after the client got the event that shows it (its commit overlaps the client's reading, see
 * {@link com.sandboxgateway.policy.PolicyChain#answered}), the rows of the items, containers and container files it
 * shows with its next audit record or its charges. Either way an id is never usable by anyone before it is owned:
 * until its row is visible it gets the 404 of an id nobody owns.
 */
public final class OwnershipRecorder implements ResponseInspector {

    /** The ids this exchange recorded for their owner: a stream names the same response and container in many events. */
    private static final Exchange.Slot<Set<String>> RECORDED = Exchange.Slot.withInitial("objects recorded", HashSet::new);

    private final OwnershipStore store;

    public OwnershipRecorder(OwnershipStore store) {
        this.store = store;
    }

    @Override
    public void inspect(Exchange exchange, Answer answer) {
        List<OwnershipStore.Created> created = new ArrayList<>();
        if (answer.isEvent()) {
            answer.response().ifPresent(response -> recordResponse(exchange, response, created));
            answer.item().ifPresent(item -> recordItem(exchange, item, exchange.responseId(), created));
            stage(exchange, created);
            return;
        }
        JsonNode body = answer.json();
        switch (exchange.route().route()) {
            case RESPONSES_CREATE, RESPONSE_GET, RESPONSE_CANCEL ->
                    answer.response().ifPresent(response -> recordResponse(exchange, response, created));
            case FILES_UPLOAD -> add(exchange, text(body, "id"), ObjectKind.FILE, null, epochSeconds(body.get("expires_at")), created);
            case CONTAINERS_CREATE -> add(exchange, text(body, "id"), ObjectKind.CONTAINER, null, null, created);
            case CONTAINER_FILES_CREATE ->
                    add(exchange, text(body, "id"), ObjectKind.CONTAINER_FILE, exchange.route().id("container_id"), null, created);
            case RESPONSE_DELETE -> deleted(exchange, exchange.route().id("response_id"));
            case FILE_DELETE -> deleted(exchange, exchange.route().id("file_id"));
            case CONTAINER_DELETE -> deleted(exchange, exchange.route().id("container_id"));
            case CONTAINER_FILE_DELETE -> deleted(exchange, exchange.route().id("file_id"));
            case CONVERSATIONS_CREATE -> add(exchange, text(body, "id"), ObjectKind.CONVERSATION, null, null, created);
            case CONVERSATION_DELETE -> deleted(exchange, exchange.route().id("conversation_id"));
            // The conversation is the caller's (checked before), so the items read or added in it are too.
            case CONVERSATION_ITEMS_CREATE, CONVERSATION_ITEMS_LIST -> {
                for (JsonNode item : body.path("data")) {
                    recordItem(exchange, OutputItem.of(item), exchange.route().id("conversation_id"), created);
                }
            }
            case CONVERSATION_ITEM_GET -> recordItem(exchange, OutputItem.of(body), exchange.route().id("conversation_id"), created);
            case CONVERSATION_ITEM_DELETE -> deleted(exchange, exchange.route().id("item_id"));
            case SKILLS_CREATE -> add(exchange, text(body, "id"), ObjectKind.SKILL, null, null, created);
            case SKILL_DELETE -> deleted(exchange, exchange.route().id("skill_id"));
            default -> { }
        }
        stage(exchange, created);
    }

    /**
     * The objects an answer created are recorded with its other writes, in one statement: as soon as a stream showed
     * a response (its client may retrieve it, or cancel it in the background, at once), otherwise with the next.
     */
    private void stage(Exchange exchange, List<OwnershipStore.Created> created) {
        if (!created.isEmpty()) {
            Settlement.Timing timing = created.stream().anyMatch(object -> object.kind() == ObjectKind.RESPONSE)
                    ? Settlement.Timing.AFTER_RELAY : Settlement.Timing.WITH_NEXT;
            exchange.settlement().write(new OwnerRows(() -> store.recordAll(exchange.principal(), created),
                    tail -> store.recordAll(exchange.principal(), created, tail), timing, store.writesInTransactions()));
        }
    }

    private void deleted(Exchange exchange, String id) {
        Runnable delete = () -> store.markDeleted(id);
        exchange.settlement().write(new OwnerRows(delete, tail -> delete.run(), Settlement.Timing.AFTER_RELAY,
                store.writesInTransactions()));
    }

    /**
     * Owner rows staged in the answer's settlement, left to its transaction's last statement where it has one
     * ({@code later}), or made before it where the store takes no transaction ({@code joinsTransaction} false);
     * bookkeeping, never before the relay (an id whose row is not visible yet is nobody's, so the client may see it
     * first). Should its transaction fail, they are written on their own, and a failure then keeps a JSON answer from
     * the client, or cuts the stream, whose event showed the id already.
     */
    private record OwnerRows(Runnable rows, Consumer<CommitTail> later, Settlement.Timing timing, boolean joinsTransaction)
            implements Settlement.Write, GroupCommit.Deferrable {

        @Override
        public boolean write() {
            rows.run();
            return true;
        }

        @Override
        public BooleanSupplier write(CommitTail tail) {
            later.accept(tail);
            return () -> true;
        }

        @Override
        public void failed(RuntimeException cause) {
            rows.run();
        }
    }

    private static void recordResponse(Exchange exchange, ResponseView response, List<OwnershipStore.Created> created) {
        add(exchange, response.id(), ObjectKind.RESPONSE, null, null, created);
        for (OutputItem item : response.output()) {
            recordItem(exchange, item, response.id(), created);
        }
    }

    /**
     * An output item (message, tool call, reasoning, ...) is the caller's, so only they can replay or
     * reference it; a code-interpreter call in an auto container (a shell call names it in {@code environment})
     * started that container for them, and the container files a message cites were made by that code for
     * them, so replaying the message works for them alone.
     */
    private static void recordItem(Exchange exchange, OutputItem item, String parentId, List<OwnershipStore.Created> created) {
        add(exchange, item.id(), ObjectKind.ITEM, parentId, null, created);
        add(exchange, item.containerId(), ObjectKind.CONTAINER, null, null, created);
        for (OutputItem.CitedFile cited : item.citedContainerFiles()) {
            add(exchange, cited.fileId(), ObjectKind.CONTAINER_FILE, cited.containerId(), null, created);
        }
    }

    /**
     * Adds an id to those the answer (or event) created, once per exchange: a stream names the same response and
     * container in many events. All of them are recorded together, in one statement.
     */
    private static void add(Exchange exchange, String id, ObjectKind kind, String parentId, Instant expiresAt,
                            List<OwnershipStore.Created> created) {
        if (id != null && !id.isBlank() && exchange.get(RECORDED).add(id)) {
            created.add(new OwnershipStore.Created(id, kind, parentId, expiresAt));
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
