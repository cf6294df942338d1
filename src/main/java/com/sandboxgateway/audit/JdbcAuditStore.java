package com.sandboxgateway.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.core.Ordered;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.audit.tlog.TreeFrontier;
import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.store.Sql;
import com.sandboxgateway.store.SqlDialect;

/**
 * The audit trail in the relational store: PostgreSQL, or an H2 that several processes reach over TCP (the H2 embedded
 * in this JVM keeps it in its file's maps, {@link EmbeddedAuditStore}). Appends lock the one {@code audit_chain} row,
 * so writers in every thread and on every replica extend a single linear chain, and the Merkle tree over the same
 * records with it (its state lives in that row, so an append costs O(log n) hashes and no reads); an
 * append of a record (or call) already stored is a no-op, so replays and repeated fetches never
 * duplicate. Appends are group-committed ({@link GroupCommit}) with the other writes of the request path, so
 * a code-running answer's record, owner rows and charges take one commit.
 *
 * <p>A transaction starts from the chain's end as this store's last one committed it, and locks the row only if the
 * chain still ends there: no read of the head. On PostgreSQL its records are inserted by the head's move, the
 * transaction's last statement, which locks the row first and moves it only if the chain still ends there and every
 * record was new; when another replica appended meanwhile, or a record (or its call) was stored already, the group is
 * rolled back and made again from the head read under lock, each record then inserted at once ({@link GroupCommit.Moved}),
 * as the first transaction and the one after a failure are, and the next few after a move (where other replicas append
 * too, so most would move again). On H2 a transaction reads the head under lock before it appends: a writer holding
 * records while it waits for the head could deadlock with one holding the head while it waits for a record.
 */
final class JdbcAuditStore implements AuditStore {

    private static final List<String> RECORD_COLUMNS = List.of("seq", "record_id", "kind", "call_id", "request_id",
            "upstream_request_id", "user_name", "team", "session_id", "response_id", "container_id", "model", "status", "code",
            "code_sha256", "outputs", "outputs_truncated", "details", "created_at", "prev_hash", "hash", "flags", "leaf_hash",
            "trace_id");
    /** The columns whose values a {@code SELECT} (unlike {@code VALUES}) must cast: all others are text. */
    private static final Map<String, String> RECORD_TYPES = Map.of("seq", "BIGINT", "outputs_truncated", "BOOLEAN",
            "created_at", "TIMESTAMP WITH TIME ZONE");
    private static final String INSERT_RECORD = "INSERT INTO audit_record (" + String.join(", ", RECORD_COLUMNS) + ") ";
    /** Positional: named parameters would be matched to the row's values anew for every record. */
    private static final String VALUES = "VALUES (" + "?, ".repeat(RECORD_COLUMNS.size() - 1) + "?)";
    /**
     * Values left to the head's move past which they are inserted at once: PostgreSQL takes at most 65,535 parameters
     * per statement, and the commit tail's own rows ({@link CommitTail}) go in the same one.
     */
    private static final int MAX_LATER_VALUES = 24_000;
    /** How many transactions lock the head first after one found the chain moved ({@link #lockFirst}). */
    private static final int LOCK_FIRST_AFTER_A_MOVE = 64;

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final GroupCommit commits;
    private final AuditChain chain;
    private final JdbcAuditTree tree;
    /** Whether an insert can tell a duplicate itself ({@code ON CONFLICT DO NOTHING}), with no read before it. */
    private final boolean onConflict;
    /** The insert of one record, its values by position: a duplicate inserts nothing where the database tells. */
    private final String insertRecord;
    /** Whether a write can carry the chain's lock or the next write ({@code SqlDialect.combinedWrites}). */
    private final boolean combinedWrites;
    /**
     * The chain's end as this store's last transaction committed it. The next transaction takes it, so no other one
     * extends the same end, and it is put back only when that one commits; empty after a failure, so the next
     * transaction reads the head under lock.
     */
    private final AtomicReference<Head> committedEnd = new AtomicReference<>();
    /**
     * Transactions still to lock the head before they append, since one found that the chain had moved (another
     * replica appends too): there, leaving the records to the head's move would mostly fail and be made again, and
     * each failure is an error in PostgreSQL's log.
     */
    private final AtomicInteger lockFirst = new AtomicInteger();

    JdbcAuditStore(JdbcClient jdbc, TransactionTemplate transactions, GroupCommit commits, SqlDialect dialect,
                   AuditChain chain, JdbcAuditTree tree) {
        this.jdbc = jdbc;
        this.onConflict = dialect.onConflict();
        this.insertRecord = INSERT_RECORD + VALUES + (onConflict ? " ON CONFLICT DO NOTHING" : "");
        this.combinedWrites = dialect.combinedWrites();
        this.transactions = transactions;
        this.commits = commits;
        this.chain = chain;
        this.tree = tree;
    }

    @Override
    public AuditTree tree() {
        return tree;
    }

    @Override
    public boolean joinsTransaction() {
        return true;
    }

    /**
     * Appends the record to the chain on its own; false when it (or its call) was already stored. It is
     * group-committed with whatever else is being committed at the same time (other records, other requests'
     * settlements), so the chain lock and the commit are paid once per group rather than once per record.
     */
    @Override
    public boolean append(AuditRecord record) {
        return commits.commit(List.of(() -> appendInTransaction(record))).getFirst();
    }

    /**
     * Appends the record in the transaction the caller runs (a group commit's); false when it (or its call) was
     * already stored. The first append of a transaction locks the chain head where this store last committed it (on
     * PostgreSQL the head's move does, with the records, unless the chain moved in a recent transaction), or else reads
     * it under lock and brings the tree up to it; the following ones extend it, and the head is saved once, just before
     * the commit.
     */
    @Override
    public boolean appendInTransaction(AuditRecord record) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new IllegalStateException("audit records are appended inside a transaction (a group commit's)");
        }
        ChainEnd end = (ChainEnd) TransactionSynchronizationManager.getResource(this);
        if (end == null) {
            Head committed = committedEnd.getAndSet(null);
            boolean alone = lockFirst.getAndUpdate(left -> Math.max(0, left - 1)) == 0;
            if (committed != null && alone && combinedWrites) {
                end = new ChainEnd(committed, Start.RECORDS_LATER);
            } else {
                end = new ChainEnd(lockHead(), Start.LOCKED);
            }
            TransactionSynchronizationManager.bindResource(this, end);
            TransactionSynchronizationManager.registerSynchronization(end);
        }
        return end.append(record);
    }

    /**
     * The end of the chain as one transaction extends it: the head it started from (read under lock, or as this store
     * last committed it), the records appended so far (so one repeated in the same transaction is a duplicate too)
     * and the tree nodes they completed.
     */
    private final class ChainEnd implements TransactionSynchronization {

        private final Head head;
        private final JdbcAuditTree.NewNodes nodes = new JdbcAuditTree.NewNodes();
        private final Set<String> appended = new HashSet<>();
        /** The appended records' flags as (flag, seq), where they go in the head's move ({@link #combinedWrites}). */
        private final List<List<Object>> flags = new ArrayList<>();
        /**
         * The records the head's move inserts, each its columns' values, where the transaction went by the end this
         * store committed on PostgreSQL (and trusts the records are new); null where each is inserted at once.
         */
        private final List<Map<String, Object>> later;
        private final Start start;
        private final boolean grew;
        private long seq;
        private String previous;
        private boolean changed;

        ChainEnd(Head head, Start start) {
            this.head = head;
            this.start = start;
            this.later = start == Start.RECORDS_LATER ? new ArrayList<>() : null;
            // An end this store committed has its tree level with the chain: only a head just read may need to catch up.
            this.grew = start == Start.LOCKED && catchUp(head, nodes);
            this.seq = head.lastSeq;
            this.previous = head.lastHash;
        }

        boolean append(AuditRecord record) {
            boolean repeated = !appended.add("record:" + record.recordId())
                    || record.callId() != null && !appended.add("call:" + record.callId());
            if (repeated) {
                return false;
            }
            AuditChain.Hashes hashes = chain.hashes(previous, seq + 1, record);
            Map<String, Object> row = row(seq + 1, record, previous, hashes);
            if (later != null) {
                later.add(row);
            } else if (!insertNew(row, record)) {
                return false;
            }
            seq++;
            record.flags().forEach(flag -> flags.add(List.of(flag, row.get("seq"))));
            head.tree.append(hashes.leafHash(), nodes);
            previous = hashes.chainHash();
            changed = true;
            if (later != null && later.size() * RECORD_COLUMNS.size() + 2 * (flags.size() + nodes.size()) > MAX_LATER_VALUES) {
                flushLater();
            }
            return true;
        }

        /**
         * Inserts the record (its row, {@link #row}) unless it (or its call) is stored already; false then. Where the
         * database takes {@code ON CONFLICT DO NOTHING} the insert itself tells, and only a record it did not insert is
         * looked up; elsewhere the record is looked up first. A conflict on {@code seq} instead must not pass as a
         * duplicate: under the lock, the chain is broken.
         */
        private boolean insertNew(Map<String, Object> row, AuditRecord record) {
            if (!onConflict && held(record)) {
                return false;
            }
            if (jdbc.sql(insertRecord).params(new ArrayList<>(row.values())).update() == 0) {
                if (held(record)) {
                    return false;
                }
                throw new IllegalStateException("audit record " + row.get("seq") + " exists although the chain ends before it; "
                        + "GET /actuator/audit/verify shows where the chain is broken");
            }
            return true;
        }

        /**
         * Inserts the records, flags and nodes left to the head's move so far, with the lock it would take: the rest
         * go in it as before.
         */
        private void flushLater() {
            Sql insert = new Sql("WITH ").add(chainLock()).add(" ").add(laterRecords());
            if (jdbc.sql(insert.text()).params(insert.params()).update() != later.size()) {
                throw moved();
            }
            later.clear();
            insertFlags();
            tree.write(nodes);
            nodes.clear();
        }

        /** The lock of the chain head, as a {@code WITH} item: its one row only if the chain ends where the transaction began. */
        private Sql chainLock() {
            return new Sql("chain_lock AS (SELECT id FROM audit_chain WHERE id = 1 AND last_seq = ").param(head.lastSeq)
                    .add(" FOR UPDATE)");
        }

        /**
         * The insert of the records left to the head's move. Its rows come from a join with the locking read
         * {@link #chainLock()} (a {@code WITH} item before it), so the lock is taken before any record is written, and
         * nothing is written unless the chain still ends where the transaction began.
         */
        private Sql laterRecords() {
            Sql insert = new Sql(INSERT_RECORD + "SELECT v.* FROM (VALUES ");
            for (int r = 0; r < later.size(); r++) {
                String separator = "(";
                for (Map.Entry<String, Object> column : later.get(r).entrySet()) {
                    insert.add(separator);
                    separator = ", ";
                    // A VALUES list in a SELECT is typed by its first row: its casts type the rest.
                    if (r > 0) {
                        insert.param(column.getValue());
                    } else {
                        insert.add("CAST(").param(column.getValue())
                                .add(" AS " + RECORD_TYPES.getOrDefault(column.getKey(), "VARCHAR") + ")");
                    }
                }
                insert.add(r + 1 < later.size() ? "), " : ")");
            }
            return insert.add(") AS v CROSS JOIN chain_lock ON CONFLICT DO NOTHING");
        }

        private void insertFlags() {
            for (List<Object> flag : flags) {
                jdbc.sql("INSERT INTO audit_flag (flag, seq) VALUES (:flag, :seq)").param("flag", flag.get(0))
                        .param("seq", flag.get(1)).update();
            }
            flags.clear();
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            save();
        }

        /**
         * Writes the nodes the transaction completed and moves the head (chain end and tree state) past them, with the
         * records and flags left to it; nothing when the transaction appended nothing and the tree did not catch up.
         */
        void save() {
            if (!grew && !changed) {
                return;
            }
            Sql move = new Sql("UPDATE audit_chain SET last_seq = ").param(seq).add(", last_hash = ").param(previous)
                    .add(", tree_size = ").param(head.tree.size()).add(", tree_base = ").param(head.treeBase)
                    .add(", tree_frontier = ").param(head.tree.encoded()).add(" WHERE id = 1");
            if (!combinedWrites) {
                // The head was read under lock: the move, then the nodes and flags.
                jdbc.sql(move.text()).params(move.params()).update();
                tree.write(nodes);
                insertFlags();
                return;
            }
            // The head's move is the transaction's last statement: the nodes and flags, the records when they were left
            // to it, and the rows others left to the tail, go in it. Records left to it are written only if it locked
            // the head where the transaction began (and the rest with them), and it moves the head only if every one
            // was new.
            List<Sql> with = new ArrayList<>();
            boolean lockHere = later != null && !later.isEmpty();
            if (lockHere) {
                with.add(chainLock());
                with.add(new Sql("records AS (").add(laterRecords()).add(" RETURNING seq)"));
                move.add(" AND (SELECT COUNT(*) FROM records) = ").param(later.size());
                List<Sql> nodesInserts = JdbcAuditTree.guardedInserts(nodes, "chain_lock");
                for (int i = 0; i < nodesInserts.size(); i++) {
                    with.add(new Sql("nodes" + i + " AS (").add(nodesInserts.get(i)).add(")"));
                }
            } else {
                Sql nodesInsert = tree.writeAllButLast(nodes);
                if (nodesInsert != null) {
                    with.add(new Sql("nodes AS (").add(nodesInsert).add(")"));
                }
            }
            if (!flags.isEmpty()) {
                Sql rows = new Sql("flags AS (INSERT INTO audit_flag (flag, seq) ")
                        .add(lockHere ? "SELECT v.* FROM (VALUES " : "VALUES ");
                for (int i = 0; i < flags.size(); i++) {
                    rows.add(i == 0 ? "(" : ", (").param(flags.get(i).get(0)).add(", ").param(flags.get(i).get(1)).add(")");
                }
                with.add(rows.add(lockHere ? ") AS v CROSS JOIN chain_lock)" : ")"));
            }
            with.add(new Sql("head AS (").add(move).add(" RETURNING id)"));
            if (!commits.tail().end(with, "head")) {
                throw moved();
            }
        }

        /** Before the commit tail's own run, so the head's move carries the rows left to it. */
        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE - 1;
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(JdbcAuditStore.this);
            if (status == STATUS_COMMITTED) {
                committedEnd.set(new Head(seq, previous, head.treeBase, head.tree));
            }
        }

        /** What the group is made again for; the next transactions then lock the head first ({@link #lockFirst}). */
        private GroupCommit.Moved moved() {
            lockFirst.set(LOCK_FIRST_AFTER_A_MOVE);
            return new GroupCommit.Moved("another replica appended to the audit chain after record " + head.lastSeq
                    + ", or a record it went to append was stored already");
        }
    }

    /**
     * Makes leaves of the records the tree does not hold yet: at the first start after the upgrade, every
     * record written before, and then any a replica of an older version appended. Returns whether the tree grew.
     */
    private boolean catchUp(Head head, JdbcAuditTree.NewNodes nodes) {
        boolean grew = false;
        while (head.treeBase + head.tree.size() < head.lastSeq) {
            long next = head.treeBase + head.tree.size() + 1;
            List<StoredRecord> page = jdbc.sql("SELECT * FROM audit_record WHERE seq >= :from ORDER BY seq LIMIT :limit")
                    .param("from", next).param("limit", PAGE).query(JdbcAuditStore::map).list();
            for (StoredRecord stored : page) {
                if (stored.seq() != head.treeBase + head.tree.size() + 1) {
                    throw new IllegalStateException("audit record " + (head.treeBase + head.tree.size() + 1)
                            + " is missing, so the records after it cannot become leaves of the audit tree; "
                            + "GET /actuator/audit/verify shows where the chain is broken");
                }
                byte[] leaf = chain.hashes(stored.prevHash(), stored.seq(), stored.record()).leafHash();
                jdbc.sql("UPDATE audit_record SET leaf_hash = :leaf WHERE seq = :seq")
                        .param("leaf", HexFormat.of().formatHex(leaf)).param("seq", stored.seq()).update();
                head.tree.append(leaf, nodes);
                grew = true;
            }
            if (page.isEmpty()) {
                throw new IllegalStateException("audit records up to " + head.lastSeq + " are missing from the store; "
                        + "GET /actuator/audit/verify shows where the chain is broken");
            }
        }
        return grew;
    }

    /**
     * Brings the tree up to the chain at start, so the first request does not pay for records written
     * before the tree existed. Returns how many records became leaves.
     */
    @Override
    public long catchUpTree() {
        Long added = transactions.execute(status -> {
            Head head = lockHead();
            long before = head.tree.size();
            new ChainEnd(head, Start.LOCKED).save();
            return head.tree.size() - before;
        });
        return added == null ? 0 : added;
    }

    private Head lockHead() {
        Map<String, Object> row = jdbc.sql("""
                SELECT last_seq, last_hash, base_seq, tree_size, tree_base, tree_frontier FROM audit_chain WHERE id = 1 FOR UPDATE""")
                .query().singleRow();
        long treeSize = ((Number) row.get("tree_size")).longValue();
        // A tree begun after retention deleted older records starts at the first record still there.
        long treeBase = treeSize == 0 ? ((Number) row.get("base_seq")).longValue() : ((Number) row.get("tree_base")).longValue();
        return new Head(((Number) row.get("last_seq")).longValue(), (String) row.get("last_hash"), treeBase,
                TreeFrontier.decode(treeSize, (String) row.get("tree_frontier")));
    }

    /** How a transaction starts from the chain's end. */
    private enum Start {
        /** From the head read under lock: the first transaction, the one after a failure or a move, and H2 over TCP. */
        LOCKED,
        /**
         * From the end this store last committed, its records left to the head's move, which locks the head where the
         * transaction began and inserts them (PostgreSQL).
         */
        RECORDS_LATER
    }

    /** The chain head as locked by a transaction: where the chain ends, and the tree that grows with it. */
    private record Head(long lastSeq, String lastHash, long treeBase, TreeFrontier tree) {
    }

    /**
     * Whether a record with this unique value exists. One column per query: an {@code OR} across both
     * unique indexes makes H2 scan the whole table, under the chain lock every request waits for.
     */
    private boolean stored(String uniqueColumn, String value) {
        return !jdbc.sql("SELECT 1 FROM audit_record WHERE " + uniqueColumn + " = :value").param("value", value)
                .query().listOfRows().isEmpty();
    }

    private boolean held(AuditRecord record) {
        return stored("record_id", record.recordId()) || record.callId() != null && stored("call_id", record.callId());
    }

    /** The record's row at {@code seq}: its columns' values by name, in {@link #RECORD_COLUMNS}' order. */
    private static Map<String, Object> row(long seq, AuditRecord r, String previous, AuditChain.Hashes hashes) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("seq", seq);
        row.put("record_id", r.recordId());
        row.put("kind", r.kind().name());
        row.put("call_id", r.callId());
        row.put("request_id", r.requestId());
        row.put("upstream_request_id", r.upstreamRequestId());
        row.put("user_name", r.user());
        row.put("team", r.team());
        row.put("session_id", r.session());
        row.put("response_id", r.responseId());
        row.put("container_id", r.containerId());
        row.put("model", r.model());
        row.put("status", r.status());
        row.put("code", r.code());
        row.put("code_sha256", r.codeSha256());
        row.put("outputs", r.outputs());
        row.put("outputs_truncated", r.outputsTruncated());
        row.put("details", r.details());
        row.put("created_at", Timestamp.from(r.createdAt()));
        row.put("prev_hash", previous);
        row.put("hash", hashes.chainHash());
        row.put("flags", r.flags().isEmpty() ? null : "," + String.join(",", r.flags()) + ",");
        row.put("leaf_hash", hashes.leafHex());
        row.put("trace_id", r.traceId());
        return row;
    }

    @Override
    public List<StoredRecord> query(AuditQuery query) {
        return query(query, "");
    }

    /** The flagged code blocks and shell calls matching the query (whose kind, when it names one, narrows to it). */
    @Override
    public List<StoredRecord> flaggedExecutions(AuditQuery query) {
        return query(query, " AND kind IN ('CODE_EXECUTION', 'SHELL_EXECUTION') AND flags IS NOT NULL");
    }

    private List<StoredRecord> query(AuditQuery query, String condition) {
        StringBuilder sql = new StringBuilder("SELECT * FROM audit_record WHERE seq > :after").append(condition);
        Map<String, Object> params = new HashMap<>();
        params.put("after", query.after() == null ? 0L : query.after());
        filter(sql, params, "user_name", "user", query.user());
        filter(sql, params, "team", "team", query.team());
        filter(sql, params, "session_id", "session", query.session());
        filter(sql, params, "container_id", "container", query.container());
        filter(sql, params, "kind", "kind", query.kind());
        if (query.flag() != null) {
            sql.append(" AND seq IN (SELECT seq FROM audit_flag WHERE flag = :flag)");
            params.put("flag", query.flag());
        }
        if (query.since() != null) {
            sql.append(" AND created_at >= :since");
            params.put("since", Timestamp.from(query.since()));
        }
        if (query.until() != null) {
            sql.append(" AND created_at < :until");
            params.put("until", Timestamp.from(query.until()));
        }
        sql.append(" ORDER BY seq LIMIT :limit");
        params.put("limit", query.limit());
        return jdbc.sql(sql.toString()).params(params).query(JdbcAuditStore::map).list();
    }

    private static void filter(StringBuilder sql, Map<String, Object> params, String column, String name, String value) {
        if (value != null) {
            sql.append(" AND ").append(column).append(" = :").append(name);
            params.put(name, value);
        }
    }

    /** Walks the chain from its base and reports the first record whose link does not hold. */
    @Override
    public ChainVerification verify() {
        Map<String, Object> head = jdbc.sql("SELECT last_seq, base_seq, base_hash FROM audit_chain WHERE id = 1").query().singleRow();
        long expectedSeq = ((Number) head.get("base_seq")).longValue() + 1;
        long lastSeq = ((Number) head.get("last_seq")).longValue();
        String previous = (String) head.get("base_hash");
        long checked = 0;
        while (true) {
            List<StoredRecord> page = jdbc.sql("SELECT * FROM audit_record WHERE seq >= :from ORDER BY seq LIMIT :limit")
                    .param("from", expectedSeq).param("limit", PAGE).query(JdbcAuditStore::map).list();
            for (StoredRecord stored : page) {
                if (stored.seq() != expectedSeq) {
                    return ChainVerification.broken(checked, expectedSeq, "record missing: the chain jumps to " + stored.seq());
                }
                if (!stored.prevHash().equals(previous)) {
                    return ChainVerification.broken(checked, stored.seq(), "does not link to the record before it");
                }
                AuditChain.Hashes hashes = chain.hashes(previous, stored.seq(), stored.record());
                if (!hashes.chainHash().equals(stored.hash())) {
                    return ChainVerification.broken(checked, stored.seq(), "content does not match its hash");
                }
                if (stored.leafHash() != null && !stored.leafHash().equals(Base64.getEncoder().encodeToString(hashes.leafHash()))) {
                    return ChainVerification.broken(checked, stored.seq(), "content does not match its leaf in the Merkle tree");
                }
                previous = stored.hash();
                expectedSeq++;
                checked++;
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        if (expectedSeq <= lastSeq) {
            return ChainVerification.broken(checked, expectedSeq, "record missing: the chain ends early");
        }
        return ChainVerification.ok(checked);
    }

    /**
     * Deletes records older than {@code cutoff} from the start of the chain, and moves the chain's base
     * to the last deleted record's hash, so what remains still verifies.
     */
    @Override
    public int deleteOlderThan(Instant cutoff) {
        Integer deleted = transactions.execute(status -> {
            jdbc.sql("SELECT last_seq FROM audit_chain WHERE id = 1 FOR UPDATE").query().singleRow();
            List<Map<String, Object>> boundary = jdbc.sql("""
                    SELECT seq, hash FROM audit_record WHERE created_at < :cutoff ORDER BY seq DESC LIMIT 1""")
                    .param("cutoff", Timestamp.from(cutoff)).query().listOfRows();
            if (boundary.isEmpty()) {
                return 0;
            }
            long seq = ((Number) boundary.getFirst().get("seq")).longValue();
            jdbc.sql("DELETE FROM audit_flag WHERE seq <= :seq").param("seq", seq).update();
            int removed = jdbc.sql("DELETE FROM audit_record WHERE seq <= :seq").param("seq", seq).update();
            jdbc.sql("UPDATE audit_chain SET base_seq = :seq, base_hash = :hash WHERE id = 1")
                    .param("seq", seq).param("hash", boundary.getFirst().get("hash")).update();
            return removed;
        });
        return deleted == null ? 0 : deleted;
    }

    @Override
    public List<StoredRecord> withCodeHash(String sha256, int limit) {
        return records(jdbc.sql("SELECT seq FROM audit_record WHERE code_sha256 = :hash ORDER BY seq LIMIT :limit")
                .param("hash", sha256).param("limit", limit).query(Long.class).list());
    }

    @Override
    public List<Long> sessionBefore(String session, long seq, int count) {
        return jdbc.sql("SELECT seq FROM audit_record WHERE session_id = :session AND seq < :seq ORDER BY seq DESC LIMIT :n")
                .param("session", session).param("seq", seq).param("n", count).query(Long.class).list();
    }

    @Override
    public List<Long> sessionAfter(String session, long seq, int count) {
        return jdbc.sql("SELECT seq FROM audit_record WHERE session_id = :session AND seq > :seq ORDER BY seq LIMIT :n")
                .param("session", session).param("seq", seq).param("n", count).query(Long.class).list();
    }

    private List<StoredRecord> records(List<Long> seqs) {
        return seqs.isEmpty() ? List.of() : jdbc.sql("SELECT * FROM audit_record WHERE seq IN (:seqs) ORDER BY seq")
                .param("seqs", seqs).query(JdbcAuditStore::map).list();
    }

    /** Whether the record of this code-interpreter or shell call is stored already. */
    @Override
    public boolean holdsCall(String callId) {
        return stored("call_id", callId);
    }

    /** The details of the session's latest code-execution or shell-call record, if it has one. */
    @Override
    public Optional<String> latestCodeDetails(String user, String session) {
        return jdbc.sql("""
                SELECT details FROM audit_record WHERE session_id = :session AND user_name = :user
                AND kind IN ('CODE_EXECUTION', 'SHELL_EXECUTION') ORDER BY seq DESC LIMIT 1""").param("session", session).param("user", user).query(String.class).optional();
    }

    private static List<String> flags(String stored) {
        return stored == null ? List.of() : Arrays.stream(stored.split(",")).filter(flag -> !flag.isEmpty()).toList();
    }

    static StoredRecord map(ResultSet row, int rowNumber) throws SQLException {
        AuditRecord record = new AuditRecord(row.getString("record_id"), AuditRecord.Kind.valueOf(row.getString("kind")),
                row.getString("call_id"), row.getString("request_id"), row.getString("upstream_request_id"),
                row.getString("user_name"), row.getString("team"), row.getString("session_id"), row.getString("response_id"),
                row.getString("container_id"), row.getString("model"), row.getString("status"), row.getString("code"),
                row.getString("code_sha256"), row.getString("outputs"), row.getBoolean("outputs_truncated"),
                row.getString("details"), row.getTimestamp("created_at").toInstant(), flags(row.getString("flags")),
                row.getString("trace_id"));
        String leaf = row.getString("leaf_hash");
        return new StoredRecord(row.getLong("seq"), record, row.getString("prev_hash"), row.getString("hash"),
                leaf == null ? null : Base64.getEncoder().encodeToString(HexFormat.of().parseHex(leaf)));
    }

}
