package com.sandboxgateway.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import javax.sql.DataSource;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Maps in the file of the H2 database embedded in this JVM (the gateway's default store), beside its tables: H2 keeps
 * both in one key-value store (its MVStore). A record in such a map costs one B-tree entry where a table's row costs one
 * per index, an undo-log entry each and a statement; it is outside any transaction, visible at once, and reaches the
 * disk in the same background writes as the tables (within H2's write delay, as a committed row does).
 * <p>
 * The store is reached through a connection's session: H2 gives no other way to the store of a database open in this
 * JVM. Those classes are H2's engine, not its public API, so an upgrade of H2 is checked by the tests of the stores built
 * on this one.
 *
 * @param <T> the maps, opened together
 */
public final class H2Maps<T> {

    /** Rows moved per statement by {@link #moveRows}. */
    private static final int MOVE_BATCH = 1_000;

    private final DataSource dataSource;
    private final Function<MVStore, T> open;
    private volatile Opened<T> opened;

    private H2Maps(DataSource dataSource, Function<MVStore, T> open, Opened<T> opened) {
        this.dataSource = dataSource;
        this.open = open;
        this.opened = opened;
    }

    /**
     * The maps {@code open} opens in the file of the database behind {@code dataSource}; empty where that is not an H2
     * database embedded in this JVM (PostgreSQL, or H2 reached over TCP).
     */
    public static <T> Optional<H2Maps<T>> of(DataSource dataSource, Function<MVStore, T> open) {
        return Optional.ofNullable(opened(dataSource, open)).map(opened -> new H2Maps<>(dataSource, open, opened));
    }

    /**
     * The maps: opened again where H2 closed the database since (its last connection closed: a pool keeps one open, a
     * plain data source does not) and opened it anew.
     */
    public T get() {
        Opened<T> current = opened;
        if (current.store().isClosed()) {
            synchronized (this) {
                current = opened;
                if (current.store().isClosed()) {
                    current = opened(dataSource, open);
                    opened = current;
                }
            }
        }
        return current.maps();
    }

    /** The maps opened in the database's store while a connection holds the database open; null: not an embedded H2. */
    private static <T> Opened<T> opened(DataSource dataSource, Function<MVStore, T> open) {
        try (Connection connection = dataSource.getConnection()) {
            if (connection.isWrapperFor(JdbcConnection.class)
                    && connection.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session) {
                MVStore store = session.getDatabase().getStore().getMvStore();
                return new Opened<>(store, open.apply(store));
            }
            return null;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the database the gateway writes to", e);
        }
    }

    /**
     * Ends a change to the maps: where H2 writes each commit at once ({@code WRITE_DELAY=0}), this change too, as a commit
     * of the tables would be; else H2's background writes take it within the write delay, as they take a commit.
     */
    public void written() {
        MVStore store = opened.store();
        if (store.getAutoCommitDelay() == 0) {
            store.commit();
        }
    }

    /** Puts one row of a table into the maps. */
    @FunctionalInterface
    public interface RowMove {

        void put(ResultSet row) throws SQLException;
    }

    /**
     * Moves into the maps the rows a table holds (written by a version of the gateway before them), then deletes them
     * there, {@value #MOVE_BATCH} at a time: a start that stopped half-way moves the rest the next time. A put must keep
     * what the maps hold already (a row moved before the delete that follows it was lost).
     *
     * @param key the table's key column
     */
    public static void moveRows(JdbcClient jdbc, String table, String key, RowMove move) {
        for (List<String> moved; !(moved = jdbc.sql("SELECT * FROM " + table + " ORDER BY " + key + " LIMIT " + MOVE_BATCH)
                .query((row, n) -> {
                    move.put(row);
                    return row.getString(key);
                }).list()).isEmpty(); ) {
            jdbc.sql("DELETE FROM " + table + " WHERE " + key + " IN (:keys)").param("keys", moved).update();
        }
    }

    private record Opened<T>(MVStore store, T maps) {
    }
}
