package com.sandboxgateway.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The audit trail in the relational store. Appends lock the one {@code audit_chain} row, so writers
 * in every thread and on every replica extend a single linear chain; an append of a record (or call)
 * already stored is a no-op, so replays and repeated fetches never duplicate. Concurrent appends of one
 * JVM are committed in groups.
 */
final class JdbcAuditStore {

    private static final int VERIFY_PAGE = 1000;

    /** The most records one transaction appends; a longer queue is written in several. */
    private static final int MAX_GROUP = 256;

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final AuditChain chain;
    private final Queue<PendingAppend> waiting = new ConcurrentLinkedQueue<>();
    /** Fair, so a writer that just finished cannot barge ahead of callers whose records it already wrote. */
    private final ReentrantLock appending = new ReentrantLock(true);

    JdbcAuditStore(JdbcClient jdbc, TransactionTemplate transactions, AuditChain chain) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.chain = chain;
    }

    /**
     * Appends the record to the chain; false when it (or its call) was already stored. Appends that arrive
     * together are committed together: whoever gets the chain writes every record waiting, in arrival
     * order, in one transaction, so the chain lock and the commit are paid once per group rather than once
     * per record, and each caller returns once its record is durable.
     */
    boolean append(AuditRecord record) {
        PendingAppend mine = new PendingAppend(record, new CompletableFuture<>());
        waiting.add(mine);
        appending.lock();
        try {
            while (!mine.stored().isDone()) {
                appendWaiting();
            }
        } finally {
            appending.unlock();
        }
        try {
            return mine.stored().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while appending an audit record", e);
        }
    }

    /** Writes up to {@link #MAX_GROUP} waiting records in one transaction; each caller learns its outcome. */
    private void appendWaiting() {
        List<PendingAppend> group = new ArrayList<>();
        for (PendingAppend next; group.size() < MAX_GROUP && (next = waiting.poll()) != null; ) {
            group.add(next);
        }
        try {
            List<Boolean> stored = appendAll(group.stream().map(PendingAppend::record).toList());
            for (int i = 0; i < group.size(); i++) {
                group.get(i).stored().complete(stored.get(i));
            }
        } catch (RuntimeException e) {
            group.forEach(pending -> pending.stored().completeExceptionally(e));
        }
    }

    /** Appends records in order under one chain lock and one commit; for each, whether it was new. */
    private List<Boolean> appendAll(List<AuditRecord> records) {
        return transactions.execute(status -> {
            Map<String, Object> head = jdbc.sql("SELECT last_seq, last_hash FROM audit_chain WHERE id = 1 FOR UPDATE")
                    .query().singleRow();
            long seq = ((Number) head.get("last_seq")).longValue();
            String previous = (String) head.get("last_hash");
            Set<String> appended = new HashSet<>();
            List<Boolean> stored = new ArrayList<>(records.size());
            for (AuditRecord record : records) {
                boolean duplicate = !appended.add("record:" + record.recordId())
                        || record.callId() != null && !appended.add("call:" + record.callId())
                        || stored("record_id", record.recordId())
                        || record.callId() != null && stored("call_id", record.callId());
                if (!duplicate) {
                    seq++;
                    String hash = chain.hash(previous, seq, record);
                    insert(seq, record, previous, hash);
                    previous = hash;
                }
                stored.add(!duplicate);
            }
            if (stored.contains(true)) {
                jdbc.sql("UPDATE audit_chain SET last_seq = :seq, last_hash = :hash WHERE id = 1")
                        .param("seq", seq).param("hash", previous).update();
            }
            return stored;
        });
    }

    /** A record waiting to be appended, and its outcome once it was. */
    private record PendingAppend(AuditRecord record, CompletableFuture<Boolean> stored) {
    }

    /**
     * Whether a record with this unique value exists. One column per query: an {@code OR} across both
     * unique indexes makes H2 scan the whole table, under the chain lock every request waits for.
     */
    private boolean stored(String uniqueColumn, String value) {
        return !jdbc.sql("SELECT 1 FROM audit_record WHERE " + uniqueColumn + " = :value").param("value", value)
                .query().listOfRows().isEmpty();
    }

    private void insert(long seq, AuditRecord r, String previous, String hash) {
        jdbc.sql("""
                INSERT INTO audit_record (seq, record_id, kind, call_id, request_id, upstream_request_id, user_name, team,
                    session_id, response_id, container_id, model, status, code, code_sha256, outputs, outputs_truncated,
                    details, created_at, prev_hash, hash, flags, trace_id)
                VALUES (:seq, :record_id, :kind, :call_id, :request_id, :upstream_request_id, :user_name, :team,
                    :session_id, :response_id, :container_id, :model, :status, :code, :code_sha256, :outputs,
                    :outputs_truncated, :details, :created_at, :prev_hash, :hash, :flags, :trace_id)""")
                .param("seq", seq).param("record_id", r.recordId()).param("kind", r.kind().name())
                .param("call_id", r.callId()).param("request_id", r.requestId())
                .param("upstream_request_id", r.upstreamRequestId()).param("user_name", r.user()).param("team", r.team())
                .param("session_id", r.session()).param("response_id", r.responseId()).param("container_id", r.containerId())
                .param("model", r.model()).param("status", r.status()).param("code", r.code())
                .param("code_sha256", r.codeSha256()).param("outputs", r.outputs())
                .param("outputs_truncated", r.outputsTruncated()).param("details", r.details())
                .param("created_at", Timestamp.from(r.createdAt())).param("prev_hash", previous).param("hash", hash)
                .param("flags", r.flags().isEmpty() ? null : "," + String.join(",", r.flags()) + ",")
                .param("trace_id", r.traceId())
                .update();
        for (String flag : r.flags()) {
            jdbc.sql("INSERT INTO audit_flag (flag, seq) VALUES (:flag, :seq)").param("flag", flag).param("seq", seq).update();
        }
    }

    List<StoredRecord> query(AuditQuery query) {
        StringBuilder sql = new StringBuilder("SELECT * FROM audit_record WHERE seq > :after");
        Map<String, Object> params = new java.util.HashMap<>();
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
    ChainVerification verify() {
        Map<String, Object> head = jdbc.sql("SELECT last_seq, base_seq, base_hash FROM audit_chain WHERE id = 1").query().singleRow();
        long expectedSeq = ((Number) head.get("base_seq")).longValue() + 1;
        long lastSeq = ((Number) head.get("last_seq")).longValue();
        String previous = (String) head.get("base_hash");
        long checked = 0;
        while (true) {
            List<StoredRecord> page = jdbc.sql("SELECT * FROM audit_record WHERE seq >= :from ORDER BY seq LIMIT :limit")
                    .param("from", expectedSeq).param("limit", VERIFY_PAGE).query(JdbcAuditStore::map).list();
            for (StoredRecord stored : page) {
                if (stored.seq() != expectedSeq) {
                    return ChainVerification.broken(checked, expectedSeq, "record missing: the chain jumps to " + stored.seq());
                }
                if (!stored.prevHash().equals(previous)) {
                    return ChainVerification.broken(checked, stored.seq(), "does not link to the record before it");
                }
                if (!chain.hash(previous, stored.seq(), stored.record()).equals(stored.hash())) {
                    return ChainVerification.broken(checked, stored.seq(), "content does not match its hash");
                }
                previous = stored.hash();
                expectedSeq++;
                checked++;
            }
            if (page.size() < VERIFY_PAGE) {
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
    int deleteOlderThan(Instant cutoff) {
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

    /** Streams every record in chain order to {@code sink} (export), a page at a time. */
    void forEach(AuditQuery query, Consumer<StoredRecord> sink) {
        Long after = query.after();
        while (true) {
            List<StoredRecord> page = query(new AuditQuery(query.user(), query.team(), query.session(), query.container(),
                    query.since(), query.until(), query.kind(), query.flag(), after, VERIFY_PAGE));
            page.forEach(sink);
            if (page.size() < VERIFY_PAGE) {
                return;
            }
            after = page.getLast().seq();
        }
    }

    /** Whether the record of this code-interpreter call is stored already. */
    boolean holdsCall(String callId) {
        return stored("call_id", callId);
    }

    /** The details of the session's latest code-execution record, if it has one. */
    Optional<String> latestCodeDetails(String user, String session) {
        return jdbc.sql("""
                SELECT details FROM audit_record WHERE session_id = :session AND user_name = :user AND kind = 'CODE_EXECUTION'
                ORDER BY seq DESC LIMIT 1""").param("session", session).param("user", user).query(String.class).optional();
    }

    private static List<String> flags(String stored) {
        return stored == null ? List.of() : Arrays.stream(stored.split(",")).filter(flag -> !flag.isEmpty()).toList();
    }

    private static StoredRecord map(ResultSet row, int rowNumber) throws SQLException {
        AuditRecord record = new AuditRecord(row.getString("record_id"), AuditRecord.Kind.valueOf(row.getString("kind")),
                row.getString("call_id"), row.getString("request_id"), row.getString("upstream_request_id"),
                row.getString("user_name"), row.getString("team"), row.getString("session_id"), row.getString("response_id"),
                row.getString("container_id"), row.getString("model"), row.getString("status"), row.getString("code"),
                row.getString("code_sha256"), row.getString("outputs"), row.getBoolean("outputs_truncated"),
                row.getString("details"), row.getTimestamp("created_at").toInstant(), flags(row.getString("flags")),
                row.getString("trace_id"));
        return new StoredRecord(row.getLong("seq"), record, row.getString("prev_hash"), row.getString("hash"));
    }

}
