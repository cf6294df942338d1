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
 * transaction ended when Spring commits it, and sends nothing more. Its {@code BEGIN} goes in that round trip too,
 * because the statement answers in fixed-size columns only (which row of which insert was new, as two integers):
 * before a statement whose answer rows it cannot bound (a text column), pgjdbc sends what it holds and waits for the
 * answer first, so as not to deadlock on full socket buffers, and the {@code BEGIN} then costs a round trip of its own.
 */
public final class CommitTail implements TransactionSynchronization {

    /**
     * Values waiting past which the tail runs at once, whatever comes after: PostgreSQL takes at most 65,535 parameters
     * per statement, and a group of many callers' owner rows (a long list read) could pass it.
     */
    private static final int MAX_WAITING = 30_000;
    /** PostgreSQL's SQLSTATE of a division by zero: the statement's answer where its conditional item returned no row. */
    private static final String DIVISION_BY_ZERO = "22012";
    /** The group number of the statement's answer rows that are not an insert's. */
    private static final int NO_GROUP = -1;

    private final JdbcOperations jdbc;
    /** The rows waiting, by table and columns, each group one multi-row insert. */
    private final Map<String, Rows> rows = new LinkedHashMap<>();
    private final Set<String> keys = new HashSet<>();
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
        Rows group = rows.computeIfAbsent(table + " (" + columns + ")", into -> new Rows(rows.size(), into, columns));
        group.values.add(values);
        int row = group.values.size();
        waiting += values.size();
        if (waiting > MAX_WAITING) {
            run(List.of(), null, false);
        }
        return () -> {
            if (!group.ran) {
                throw new IllegalStateException("the commit tail has not run yet");
            }
            return group.inserted.contains(row);
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
        List<Rows> groups = List.copyOf(rows.values());
        List<Sql> items = new ArrayList<>();
        List<Sql> answers = new ArrayList<>();
        for (Rows group : groups) {
            items.add(group.insert());
            answers.add(group.answer());
        }
        items.addAll(more);
        Sql sql = new Sql("WITH ");
        for (int i = 0; i < items.size(); i++) {
            sql.add(i == 0 ? "" : ", ").add(items.get(i));
        }
        if (returning != null) {
            // One divided by its row count: no row fails the statement, and PostgreSQL skips the commit after it.
            answers.add(new Sql("SELECT " + NO_GROUP + ", CAST(1 / COUNT(*) AS INT) FROM " + returning));
        }
        if (answers.isEmpty()) {
            answers.add(new Sql("SELECT " + NO_GROUP + ", 0"));
        }
        sql.add(" ");
        for (int i = 0; i < answers.size(); i++) {
            sql.add(i == 0 ? "" : " UNION ALL ").add(answers.get(i));
        }
        sql.add(commit ? "; COMMIT" : "");
        ended = commit;
        Boolean answered = jdbc.execute(sql.text(), (PreparedStatement statement) -> {
            new ArgumentPreparedStatementSetter(sql.params().toArray()).setValues(statement);
            try {
                statement.execute();
            } catch (SQLException failed) {
                if (returning != null && DIVISION_BY_ZERO.equals(failed.getSQLState())) {
                    return null;
                }
                throw failed;
            }
            try (ResultSet result = statement.getResultSet()) {
                while (result.next()) {
                    int group = result.getInt(1);
                    if (group != NO_GROUP) {
                        groups.get(group).inserted.add(result.getInt(2));
                    }
                }
            }
            return true;
        });
        groups.forEach(group -> group.ran = true);
        rows.clear();
        waiting = 0;
        return answered != null;
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

    /** Rows of one table and column list: one {@code WITH} item, named {@code i<number>} by its place in its statement. */
    private static final class Rows {

        private final int number;
        private final String name;
        private final String into;
        /** The conflict key's column. */
        private final String key;
        private final List<List<Object>> values = new ArrayList<>();
        /** Once it ran: the rows (1-based, in {@link #values}' order) it inserted. */
        private final Set<Integer> inserted = new HashSet<>();
        private boolean ran;

        Rows(int number, String into, String columns) {
            this.number = number;
            this.name = "i" + number;
            this.into = into;
            this.key = columns.split(",")[0].strip();
        }

        /** Its answer rows, in integers only: its number, and the place of each inserted row's key among the keys. */
        Sql answer() {
            String[] keys = values.stream().map(row -> String.valueOf(row.getFirst())).toArray(String[]::new);
            return new Sql("SELECT " + number + ", array_position(CAST(").param(keys)
                    .add(" AS VARCHAR[]), CAST(" + key + " AS VARCHAR)) FROM " + name);
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
