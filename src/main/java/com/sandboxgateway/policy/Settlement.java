package com.sandboxgateway.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.sandboxgateway.store.GroupCommit;

/**
 * What the inspectors of one exchange leave to be done once they have all seen an answer: durable writes (the
 * audit record, owner rows, turn and spend charges) and the changes that follow from their outcomes (counter
 * deltas). The chain settles it once per answer: every staged write in one transaction, group-committed with other
 * exchanges' settlements ({@link GroupCommit}) (a write that takes no transaction, just before it), then the changes,
 * one call per {@link Batch} (one Redis round trip for every counter the answer moves).
 *
 * <p>When is up to each write ({@link Write#timing}): a JSON answer is settled before it is relayed, and so is a
 * stream event that staged a write which must precede it; an event that staged bookkeeping a client may act on at once
 * is relayed first and settled right after, before the next event is read ({@link PolicyChain#relayed}); the rest of a
 * stream's bookkeeping rides with the next of those settlings, at the latest the one that ends the exchange.
 */
public final class Settlement {

    /** A durable write staged by an inspector, with what to do with its outcome. */
    public interface Write extends GroupCommit.Write {

        /** It was committed: {@code fresh} when it changed the store, false when the store held it already. */
        default void written(boolean fresh) {
        }

        /**
         * The settlement's transaction failed, so this write was not made: make it another way (on its own, or to the
         * audit spool) or log that it could not be. May throw to keep the answer from the client.
         */
        void failed(RuntimeException cause);

        /** When it must be durable, against the relay of the stream event that staged it. */
        Timing timing();

        /**
         * Whether it writes to the database, in the settlement's group-committed transaction. One that does not (to the
         * embedded database's maps, {@link com.sandboxgateway.store.H2Maps}, which take no transaction) is made on its
         * own before it, and where all are such, no transaction is made.
         */
        default boolean joinsTransaction() {
            return true;
        }
    }

    /** When a write a stream event staged must be durable (a JSON answer's writes all are before it is relayed). */
    public enum Timing {

        /**
         * Before the event is relayed: what records executed code or its output (the tamper-evident audit precedes what
         * it records).
         */
        BEFORE_RELAY,
        /**
         * Once the event is flushed, while the client reads it: what a client may act on as soon as it sees the event
         * (a response's owner row: it may retrieve the response, or cancel it in the background) and what the stream
         * ends with (its turn and spend charges).
         */
        AFTER_RELAY,
        /**
         * With the next settling that happens for another reason, at the latest when the exchange ends: bookkeeping no
         * client acts on while the stream runs (the owner rows of the items, containers and container files it shows).
         */
        WITH_NEXT
    }

    /** Changes made together after the writes: every change staged for the same batch goes in one call. Must not throw. */
    @FunctionalInterface
    public interface Batch<C> {

        void apply(List<C> changes);
    }

    private final List<Write> writes = new ArrayList<>();
    private final Map<Batch<?>, List<Object>> changes = new LinkedHashMap<>();

    /** Stages a write for the next settling. */
    public void write(Write write) {
        writes.add(write);
    }

    /** Stages a change of {@code batch}, to be made after the writes (an outcome callback may stage one). */
    public <C> void change(Batch<C> batch, C change) {
        changes.computeIfAbsent(batch, key -> new ArrayList<>()).add(change);
    }

    /** Whether a write staged since the last settling must be durable before the answer is relayed. */
    boolean holdsRelay() {
        return writes.stream().anyMatch(write -> write.timing() == Timing.BEFORE_RELAY);
    }

    /** Whether what was staged since the last settling is due once the event that staged it is relayed. */
    boolean dueAfterRelay() {
        return !changes.isEmpty() || writes.stream().anyMatch(write -> write.timing() != Timing.WITH_NEXT);
    }

    /**
     * Makes what was staged since the last settling: the writes in one group-committed transaction, each told its
     * outcome (or, when the transaction failed, told so), then the changes. The changes are made even when a
     * write's fallback throws; the first such exception is thrown after them.
     */
    void settle(GroupCommit commits) {
        if (writes.isEmpty() && changes.isEmpty()) {
            return;
        }
        List<Write> staged = List.copyOf(writes);
        writes.clear();
        try {
            if (!staged.isEmpty()) {
                tellOutcomes(staged, commits);
            }
        } finally {
            applyChanges();
        }
    }

    /**
     * The writes that join no transaction one by one, then the others together; every write is told its outcome, or
     * given its fallback, even after another's fallback threw. The first thrown is rethrown.
     */
    private static void tellOutcomes(List<Write> staged, GroupCommit commits) {
        RuntimeException thrown = null;
        List<Write> joining = new ArrayList<>(staged.size());
        for (Write write : staged) {
            if (write.joinsTransaction()) {
                joining.add(write);
                continue;
            }
            try {
                make(List.of(write), writes -> List.of(write.write()));
            } catch (RuntimeException e) {
                thrown = thrown == null ? e : thrown;
            }
        }
        try {
            if (!joining.isEmpty()) {
                make(joining, commits::commit);
            }
        } catch (RuntimeException e) {
            thrown = thrown == null ? e : thrown;
        }
        if (thrown != null) {
            throw thrown;
        }
    }

    /** Makes the writes with {@code commit}, then tells each its outcome; where it failed, gives each its fallback. */
    private static void make(List<Write> writes, Function<List<Write>, List<Boolean>> commit) {
        List<Boolean> fresh;
        try {
            fresh = commit.apply(writes);
        } catch (RuntimeException failure) {
            fallBack(writes, failure);
            return;
        }
        for (int i = 0; i < writes.size(); i++) {
            writes.get(i).written(fresh.get(i));
        }
    }

    /** Every write gets its fallback, even after one threw; the first thrown is rethrown. */
    private static void fallBack(List<Write> staged, RuntimeException failure) {
        RuntimeException first = null;
        for (Write write : staged) {
            try {
                write.failed(failure);
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @SuppressWarnings("unchecked")
    private void applyChanges() {
        List<Map.Entry<Batch<?>, List<Object>>> staged = List.copyOf(changes.entrySet());
        changes.clear();
        for (Map.Entry<Batch<?>, List<Object>> batch : staged) {
            ((Batch<Object>) batch.getKey()).apply(batch.getValue());
        }
    }
}
