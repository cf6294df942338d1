package com.sandboxgateway.audit;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where the audit trail is kept: one linear chain of records, each linked to the one before by its hash, and the Merkle
 * tree over the same records ({@link AuditTree}). An append of a record (or call) already stored is a no-op, so replays
 * and repeated fetches never duplicate. PostgreSQL (and an H2 that several processes reach) keeps it in tables
 * ({@link JdbcAuditStore}); the H2 embedded in this JVM, the default, in its file's maps ({@link EmbeddedAuditStore}).
 */
interface AuditStore {

    /** The Merkle tree over the records, kept with them. */
    AuditTree tree();

    /** Rows per page where the whole trail (or all of a filter) is walked: verification, export. */
    int PAGE = 1000;

    /** Appends the record on its own; false when it (or its call) was already stored. */
    boolean append(AuditRecord record);

    /**
     * Appends the record as one of the writes of the transaction the caller runs (a group commit's), where the store
     * {@link #joinsTransaction joins it}; false when it (or its call) was already stored.
     */
    boolean appendInTransaction(AuditRecord record);

    /**
     * Whether an append joins the caller's transaction; one that does not is made at once, outside any, and a
     * settlement makes it before its transaction ({@link com.sandboxgateway.policy.Settlement.Write#joinsTransaction}).
     */
    boolean joinsTransaction();

    /** Records matching the query, in chain order. */
    List<StoredRecord> query(AuditQuery query);

    /** The flagged code blocks and shell calls matching the query (whose kind, when it names one, narrows to it). */
    List<StoredRecord> flaggedExecutions(AuditQuery query);

    /** Up to {@code limit} records of code with this SHA-256 (lower-case hex), in chain order. */
    List<StoredRecord> withCodeHash(String sha256, int limit);

    /** The places of up to {@code count} records of the session just before {@code seq}, nearest first. */
    List<Long> sessionBefore(String session, long seq, int count);

    /** The places of up to {@code count} records of the session just after {@code seq}, in chain order. */
    List<Long> sessionAfter(String session, long seq, int count);

    /** Walks the chain from its base and reports the first record whose link does not hold. */
    ChainVerification verify();

    /**
     * Deletes records older than {@code cutoff} from the start of the chain, and moves the chain's base to the last
     * deleted record's hash, so what remains still verifies. Returns how many records it deleted.
     */
    int deleteOlderThan(Instant cutoff);

    /** Whether the record of this code-interpreter or shell call is stored already. */
    boolean holdsCall(String callId);

    /** The details of the session's latest code-execution or shell-call record, if it has one. */
    Optional<String> latestCodeDetails(String user, String session);

    /** Brings the tree up to the chain at start (records written before the tree existed); returns how many became leaves. */
    long catchUpTree();

    /** Streams every record matching the query in chain order to {@code sink} (export), a page at a time. */
    default void forEach(AuditQuery query, Consumer<StoredRecord> sink) {
        Long after = query.after();
        while (true) {
            List<StoredRecord> page = query(new AuditQuery(query.user(), query.team(), query.session(), query.container(),
                    query.since(), query.until(), query.kind(), query.flag(), after, PAGE));
            page.forEach(sink);
            if (page.size() < PAGE) {
                return;
            }
            after = page.getLast().seq();
        }
    }
}
