package com.sandboxgateway.store;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * What the relational store's SQL may use beyond the common core.
 *
 * @param onConflict it takes {@code INSERT ... ON CONFLICT DO NOTHING}: PostgreSQL, and H2 in its PostgreSQL mode (the
 *        gateway's default URL). A write made once by id uses it, as a duplicate then fails no statement (on
 *        PostgreSQL a failed statement fails the whole transaction, and with it a group commit), and it needs no
 *        look-up before it
 * @param combinedWrites it takes an {@code INSERT} inside {@code WITH} ahead of another statement, and a locking
 *        {@code SELECT ... FOR UPDATE} as the rows of an {@code INSERT} (PostgreSQL, not H2): a lock, a write and the
 *        next write then cost one round trip
 */
public record SqlDialect(boolean onConflict, boolean combinedWrites) {

    /** The dialect of the database behind {@code dataSource}, read from it once. */
    public static SqlDialect of(DataSource dataSource) {
        try {
            return JdbcUtils.extractDatabaseMetaData(dataSource, SqlDialect::of);
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("cannot read which database the gateway writes to", e);
        }
    }

    /**
     * H2's mode is asked of the database itself: its metadata's URL leaves the settings out, so a {@code ;MODE=PostgreSQL}
     * in the configured URL cannot be seen there.
     */
    private static SqlDialect of(DatabaseMetaData meta) throws SQLException {
        return switch (meta.getDatabaseProductName()) {
            case "PostgreSQL" -> new SqlDialect(true, true);
            case "H2" -> new SqlDialect(h2Mode(meta.getConnection()).equalsIgnoreCase("PostgreSQL"), false);
            default -> new SqlDialect(false, false);
        };
    }

    private static String h2Mode(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet mode = statement.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MODE'")) {
            return mode.next() ? mode.getString(1) : "";
        }
    }
}
