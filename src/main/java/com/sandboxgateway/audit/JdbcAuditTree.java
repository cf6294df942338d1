package com.sandboxgateway.audit;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.TreeFrontier;
import com.sandboxgateway.audit.tlog.TreeNodes;
import com.sandboxgateway.store.Sql;

/**
 * The audit records' Merkle tree in the relational store: its complete nodes ({@code audit_tree_node}), its state in
 * the chain head row ({@code tree_size}, {@code tree_base}, {@code tree_frontier}) and the signed checkpoints
 * ({@code audit_checkpoint}).
 */
final class JdbcAuditTree implements AuditTree {

    private static final HexFormat HEX = HexFormat.of();
    /** Rows per multi-row insert: well below every driver's parameter limit. */
    private static final int INSERT_ROWS = 500;

    private final JdbcClient jdbc;

    JdbcAuditTree(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Nodes completed by appends of one transaction, written together by {@link #write}. */
    static final class NewNodes implements TreeFrontier.NodeSink {

        private final List<Long> keys = new ArrayList<>();
        private final List<String> hashes = new ArrayList<>();

        @Override
        public void stored(int level, long index, byte[] hash) {
            keys.add(TreeNodes.key(level, index));
            hashes.add(HEX.formatHex(hash));
        }

        int size() {
            return keys.size();
        }

        void clear() {
            keys.clear();
            hashes.clear();
        }
    }

    void write(NewNodes nodes) {
        for (int from = 0; from < nodes.keys.size(); from += INSERT_ROWS) {
            run(insert(nodes, from, null));
        }
    }

    /**
     * Writes the nodes but the last {@value #INSERT_ROWS}, and returns the insert of those for the caller to run with
     * its next statement; null when there are no nodes.
     */
    Sql writeAllButLast(NewNodes nodes) {
        if (nodes.keys.isEmpty()) {
            return null;
        }
        int last = (nodes.keys.size() - 1) / INSERT_ROWS * INSERT_ROWS;
        for (int from = 0; from < last; from += INSERT_ROWS) {
            run(insert(nodes, from, null));
        }
        return insert(nodes, last, null);
    }

    /**
     * The inserts of all the nodes, {@value #INSERT_ROWS} at most each, for the caller to run as items of its
     * statement's {@code WITH}; each writes its rows only if the item {@code guard} of that {@code WITH} has a row (a
     * locking read).
     */
    static List<Sql> guardedInserts(NewNodes nodes, String guard) {
        List<Sql> inserts = new ArrayList<>();
        for (int from = 0; from < nodes.keys.size(); from += INSERT_ROWS) {
            inserts.add(insert(nodes, from, guard));
        }
        return inserts;
    }

    /**
     * The insert of up to {@value #INSERT_ROWS} nodes from {@code from}; with a {@code guard}, its rows joined with that
     * {@code WITH} item's.
     */
    private static Sql insert(NewNodes nodes, int from, String guard) {
        int to = Math.min(from + INSERT_ROWS, nodes.keys.size());
        Sql sql = new Sql("INSERT INTO audit_tree_node (id, hash) " + (guard == null ? "" : "SELECT v.* FROM (") + "VALUES ");
        for (int i = from; i < to; i++) {
            sql.add(i == from ? "(" : ", (").param(nodes.keys.get(i)).add(", ").param(nodes.hashes.get(i)).add(")");
        }
        return guard == null ? sql : sql.add(") AS v CROSS JOIN " + guard);
    }

    private void run(Sql sql) {
        jdbc.sql(sql.text()).params(sql.params()).update();
    }

    @Override
    public Checkpoint head(String origin) {
        Map<String, Object> row = jdbc.sql("SELECT tree_size, tree_frontier FROM audit_chain WHERE id = 1").query().singleRow();
        TreeFrontier frontier = TreeFrontier.decode(((Number) row.get("tree_size")).longValue(), (String) row.get("tree_frontier"));
        return new Checkpoint(origin, frontier.size(), frontier.root());
    }

    @Override
    public Map<Long, byte[]> nodes(Set<Long> keys) {
        Map<Long, byte[]> fetched = new HashMap<>();
        jdbc.sql("SELECT id, hash FROM audit_tree_node WHERE id IN (:ids)").param("ids", List.copyOf(keys))
                .query((row, n) -> fetched.put(row.getLong("id"), HEX.parseHex(row.getString("hash")))).list();
        return fetched;
    }

    @Override
    public Span span() {
        Map<String, Object> row = jdbc.sql("SELECT tree_size, tree_base FROM audit_chain WHERE id = 1").query().singleRow();
        return new Span(((Number) row.get("tree_size")).longValue(), ((Number) row.get("tree_base")).longValue());
    }

    @Override
    public boolean save(Checkpoint checkpoint, String note, Instant at) {
        try {
            return jdbc.sql("""
                    INSERT INTO audit_checkpoint (tree_size, root_hash, note, created_at) VALUES (:size, :root, :note, :at)""")
                    .param("size", checkpoint.size()).param("root", HEX.formatHex(checkpoint.root())).param("note", note)
                    .param("at", Timestamp.from(at)).update() == 1;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    @Override
    public Optional<String> latestCheckpoint() {
        return jdbc.sql("SELECT note FROM audit_checkpoint ORDER BY tree_size DESC LIMIT 1").query(String.class).optional();
    }
}
