package com.sandboxgateway.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.BooleanSupplier;

import org.springframework.core.Ordered;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The last statement of a group's transaction on PostgreSQL ({@link SqlDialect#combinedWrites()}): the inserts made once
 * by id that the writes left to it (charges, owner rows), each an {@code INSERT ... ON CONFLICT DO NOTHING RETURNING}
 * inside one {@code WITH}, with whatever the transaction ends with (the audit chain's head move) after them. So they
 * cost one round trip together instead of one each; each insert learns whether its row was new once it ran, which
 * is before the commit. The transaction's commit goes in the round trip of its last statement: pgjdbc then finds the
 * transaction ended when Spring commits it, and sends nothing more.
 */
public final class CommitTail implements TransactionSynchronization {

    /**
     * Values waiting past which the tail runs at once, whatever comes after: PostgreSQL takes at most 65,535 parameters
     * per statement, and a group of many callers' owner rows (a long list read) could pass it.
     */
    private static final int MAX_WAITING = 30_000;
    /** PostgreSQL's SQLSTATE of a division by zero: the statement's answer where its conditional item returned no row. */
    private static final String DIVISION_BY_ZERO = "22012";

    private final JdbcOperations jdbc;
    /** The rows waiting, by table and columns, each group one multi-row insert. */
    private final Map<String, Rows> rows = new LinkedHashMap<>();
    private final Set<String> keys = new HashSet<>();
    /** The keys the runs so far inserted, as {@code group:key}. */
    private final Set<String> inserted = new HashSet<>();
    /** Groups named so far: every group of the tail's runs has its own name. */
    private int groups;
    private int waiting;
    private boolean ended;

    private CommitTail(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** The tail of the transaction the caller runs, begun on first use. */
    static CommitTail of(JdbcOperations jdbc) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new IllegalStateException("a commit tail belongs to a transaction");
        }
        CommitTail tail = (CommitTail) TransactionSynchronizationManager.getResource(CommitTail.class);
        if (tail == null) {
            tail = new CommitTail(jdbc);
            TransactionSynchronizationManager.bindResource(CommitTail.class, tail);
            TransactionSynchronizationManager.registerSynchronization(tail);
        }
        return tail;
    }

    /**
     * Leaves the insert of one row to the tail, made unless its table holds a row of the same first column (its key).
     *
     * @param columns the table's columns, the conflict key first
     * @param values in the columns' order
     * @return once the tail ran: whether the row was new (a key repeated in one tail is new the first time only)
     */
    public BooleanSupplier insert(String table, String columns, List<Object> values) {
        if (ended) {
            throw new IllegalStateException("the transaction ended with its commit tail");
        }
        String key = String.valueOf(values.getFirst());
        if (!keys.add(table + ":" + key)) {
            return () -> false;
        }
        Rows group = rows.computeIfAbsent(table + " (" + columns + ")", into -> new Rows("i" + groups++, into, columns));
        group.values.add(values);
        waiting += values.size();
        if (waiting > MAX_WAITING) {
            run(List.of(), null, false);
        }
        return () -> {
            if (!group.ran) {
                throw new IllegalStateException("the commit tail has not run yet");
            }
            return inserted.contains(group.name + ":" + key);
        };
    }

    /**
     * Ends the transaction: runs every insert left so far and {@code more} ({@code name AS (statement)} items of the
     * same {@code WITH}) in one statement, and the commit in the same round trip.
     *
     * @param returning the name of an item of {@code more} with a {@code RETURNING} clause that must return a row (a
     *                  conditional update); where it returns none the statement fails, so the commit is not made
     * @return false where the item {@code returning} names returned no row: the transaction is then to be rolled back
     */
    public boolean end(List<Sql> more, String returning) {
        return run(more, returning, true);
    }

    private boolean run(List<Sql> more, String returning, boolean commit) {
        List<Sql> items = new ArrayList<>();
        StringJoiner select = new StringJoiner(" UNION ALL ");
        for (Rows group : rows.values()) {
            items.add(group.insert());
            select.add("SELECT '" + group.name + "', CAST(" + group.key + " AS VARCHAR) FROM " + group.name);
        }
        items.addAll(more);
        Sql sql = new Sql("WITH ");
        for (int i = 0; i < items.size(); i++) {
            sql.add(i == 0 ? "" : ", ").add(items.get(i));
        }
        if (returning != null) {
            // One divided by its row count: no row fails the statement, and PostgreSQL skips the commit after it.
            select.add("SELECT '', CAST(1 / COUNT(*) AS VARCHAR) FROM " + returning);
        }
        sql.add(" ").add(select.length() == 0 ? "SELECT '', ''" : select.toString()).add(commit ? "; COMMIT" : "");
        ended = commit;
        List<String> read = jdbc.execute(sql.text(), (PreparedStatement statement) -> {
            new ArgumentPreparedStatementSetter(sql.params().toArray()).setValues(statement);
            try {
                statement.execute();
            } catch (SQLException failed) {
                if (returning != null && DIVISION_BY_ZERO.equals(failed.getSQLState())) {
                    return null;
                }
                throw failed;
            }
            List<String> returned = new ArrayList<>();
            try (ResultSet result = statement.getResultSet()) {
                while (result.next()) {
                    returned.add(result.getString(1) + ":" + result.getString(2));
                }
            }
            return returned;
        });
        rows.values().forEach(group -> group.ran = true);
        rows.clear();
        waiting = 0;
        if (read == null) {
            return false;
        }
        inserted.addAll(read);
        return true;
    }

    /** Runs what no writer ran with its own statement, after the audit chain's ({@link #getOrder()}). */
    @Override
    public void beforeCommit(boolean readOnly) {
        if (!rows.isEmpty()) {
            end(List.of(), null);
        }
    }

    @Override
    public void afterCompletion(int status) {
        TransactionSynchronizationManager.unbindResourceIfPossible(CommitTail.class);
    }

    /** Last, so a writer that ends the transaction with its own statement (the audit chain's head) carries the rows. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** Rows of one table and column list: one {@code WITH} item named {@code name}. */
    private static final class Rows {

        private final String name;
        private final String into;
        /** The conflict key's column. */
        private final String key;
        private final List<List<Object>> values = new ArrayList<>();
        private boolean ran;

        Rows(String name, String into, String columns) {
            this.name = name;
            this.into = into;
            this.key = columns.split(",")[0].strip();
        }

        Sql insert() {
            Sql sql = new Sql(name + " AS (INSERT INTO " + into + " VALUES ");
            for (int r = 0; r < values.size(); r++) {
                sql.add(r == 0 ? "(" : ", (");
                List<Object> row = values.get(r);
                for (int c = 0; c < row.size(); c++) {
                    sql.add(c == 0 ? "" : ", ").param(row.get(c));
                }
                sql.add(")");
            }
            return sql.add(" ON CONFLICT DO NOTHING RETURNING " + key + ")");
        }
    }
}
