package com.sandboxgateway.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;

import org.springframework.transaction.support.TransactionOperations;

/**
 * Commits durable writes in groups: the writes of callers that arrive together (concurrent requests) are made
 * in one transaction by whichever caller gets there first, in arrival order, so the commit and the locks the
 * writes take (the audit chain's head) are paid once per group rather than once per caller. Each caller returns
 * once its writes are committed, or with its group's failure: a group commits whole or not at all.
 */
public final class GroupCommit {

    /** The most callers one transaction serves; a longer queue is committed in several. */
    private static final int MAX_GROUP = 256;

    /**
     * One write, made inside the group's transaction through the application's {@code JdbcClient}s (which join it).
     * It must not fail on what it expects, such as a duplicate: on PostgreSQL one failed statement fails the group.
     */
    @FunctionalInterface
    public interface Write {

        /** @return whether it changed the store: false when the store held it already (a duplicate, made once by id) */
        boolean write();
    }

    /**
     * Thrown inside a group's transaction by a write that went by what it knew from before the transaction (the
     * audit chain's end as this replica last committed it, instead of a locked read) and found it moved meanwhile
     * (another replica appended): the group is rolled back and made once more, the write then reading afresh.
     */
    public static final class Moved extends RuntimeException {

        public Moved(String message) {
            super(message);
        }
    }

    private final TransactionOperations transactions;
    private final Queue<Pending> waiting = new ConcurrentLinkedQueue<>();
    /** Fair, so a committer that just finished cannot barge ahead of callers whose writes it already made. */
    private final ReentrantLock committing = new ReentrantLock(true);

    public GroupCommit(TransactionOperations transactions) {
        this.transactions = transactions;
    }

    /**
     * Makes the writes durable together, in one transaction with whatever other callers commit at the same time.
     *
     * @return for each write, in order, whether it changed the store
     * @throws RuntimeException what failed the group's transaction; none of the writes was made
     */
    public List<Boolean> commit(List<? extends Write> writes) {
        Pending mine = new Pending(List.copyOf(writes), new CompletableFuture<>());
        waiting.add(mine);
        committing.lock();
        try {
            while (!mine.done().isDone()) {
                commitWaiting();
            }
        } finally {
            committing.unlock();
        }
        try {
            return mine.done().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while committing", e);
        }
    }

    /**
     * Commits up to {@link #MAX_GROUP} waiting callers' writes in one transaction; each caller learns its outcome. A
     * group one of whose writes found what it went by {@link Moved} is made once more, which the write then reads.
     */
    private void commitWaiting() {
        List<Pending> group = new ArrayList<>();
        for (Pending next; group.size() < MAX_GROUP && (next = waiting.poll()) != null; ) {
            group.add(next);
        }
        try {
            List<List<Boolean>> outcomes;
            try {
                outcomes = writeAll(group);
            } catch (Moved moved) {
                outcomes = writeAll(group);
            }
            for (int i = 0; i < group.size(); i++) {
                group.get(i).done().complete(outcomes.get(i));
            }
        } catch (RuntimeException e) {
            group.forEach(pending -> pending.done().completeExceptionally(e));
        }
    }

    private List<List<Boolean>> writeAll(List<Pending> group) {
        return transactions.execute(status -> group.stream().map(Pending::writeAll).toList());
    }

    /** One caller's writes, waiting to be committed, and their outcomes once they were. */
    private record Pending(List<Write> writes, CompletableFuture<List<Boolean>> done) {

        List<Boolean> writeAll() {
            List<Boolean> outcomes = new ArrayList<>(writes.size());
            writes.forEach(write -> outcomes.add(write.write()));
            return outcomes;
        }
    }
}
