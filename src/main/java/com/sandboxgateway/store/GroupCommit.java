package com.sandboxgateway.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.transaction.support.TransactionOperations;

/**
 * Commits durable writes in groups: the writes of callers that arrive together (concurrent requests) are made
 * in one transaction by whichever caller gets there first, in arrival order, so the commit and the locks the
 * writes take (the audit chain's head) are paid once per group rather than once per caller. Each caller returns
 * once its writes are committed, or with its group's failure: a group commits whole or not at all. On PostgreSQL the
 * writes that can ({@link Deferrable}: charges, owner rows) leave their inserts to the transaction's last statement
 * ({@link CommitTail}), so a group costs few round trips whatever it writes.
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
     * A write that can leave its statement to the transaction's {@link CommitTail}, where the group commit has one (on
     * PostgreSQL), instead of a round trip of its own.
     */
    public interface Deferrable extends Write {

        /** @return once the tail ran: whether it changed the store */
        BooleanSupplier write(CommitTail tail);
    }

    /**
     * Thrown inside a group's transaction by a write that went by what it knew from before the transaction (the
     * audit chain's end as this replica last committed it, instead of a locked read; that its records are new) and
     * found it moved meanwhile (another replica appended, or stored one of the records first): the group is rolled back
     * and made once more, the write then reading afresh.
     */
    public static final class Moved extends RuntimeException {

        public Moved(String message) {
            super(message);
        }
    }

    private final TransactionOperations transactions;
    /** Where {@link Deferrable} writes leave their statements; null: every write is made at once. */
    private final JdbcOperations tail;
    private final Queue<Pending> waiting = new ConcurrentLinkedQueue<>();
    /** Fair, so a committer that just finished cannot barge ahead of callers whose writes it already made. */
    private final ReentrantLock committing = new ReentrantLock(true);

    /** Every write made at once, in its own statements. */
    public GroupCommit(TransactionOperations transactions) {
        this(transactions, null);
    }

    /** {@link Deferrable} writes left to a {@link CommitTail} run with {@code tail}, where the dialect takes it. */
    public GroupCommit(TransactionOperations transactions, JdbcOperations tail, SqlDialect dialect) {
        this(transactions, dialect.combinedWrites() ? tail : null);
    }

    private GroupCommit(TransactionOperations transactions, JdbcOperations tail) {
        this.transactions = transactions;
        this.tail = tail;
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
     * The tail of the transaction the caller runs (begun on first use), where the dialect takes one; null where every
     * write is made at once.
     */
    public CommitTail tail() {
        return tail == null ? null : CommitTail.of(tail);
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

    /** Makes the group's writes in one transaction; their outcomes are read once it committed (a tail's, after it ran). */
    private List<List<Boolean>> writeAll(List<Pending> group) {
        List<List<BooleanSupplier>> outcomes = transactions.execute(status -> group.stream().map(this::write).toList());
        return outcomes.stream().map(writes -> writes.stream().map(BooleanSupplier::getAsBoolean).toList()).toList();
    }

    private List<BooleanSupplier> write(Pending pending) {
        List<BooleanSupplier> outcomes = new ArrayList<>(pending.writes().size());
        for (Write write : pending.writes()) {
            if (tail != null && write instanceof Deferrable deferrable) {
                outcomes.add(deferrable.write(tail()));
            } else {
                boolean fresh = write.write();
                outcomes.add(() -> fresh);
            }
        }
        return outcomes;
    }

    /** One caller's writes, waiting to be committed, and their outcomes once they were. */
    private record Pending(List<Write> writes, CompletableFuture<List<Boolean>> done) {
    }
}
