package com.sandboxgateway.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The local PostgreSQL the tests use ({@code application-postgres.yml}). The schema is dropped and
 * recreated once per test JVM, so every run migrates from scratch like a new installation.
 */
public final class LocalPostgres {

    public static final int PORT = 5432;
    public static final String URL = url(PORT);
    public static final String SCHEMA = "gateway_test";
    private static boolean recreated;

    private LocalPostgres() {
    }

    /** The test database's URL through {@code port} (a relay in front of PostgreSQL's {@link #PORT}, say). */
    public static String url(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/test";
    }

    public static synchronized void recreateSchema() {
        if (!recreated) {
            recreateSchema(SCHEMA);
            recreated = true;
        }
    }

    /** Drops {@code schema} and creates it empty: a test's own, to be migrated from scratch. */
    public static void recreateSchema(String schema) {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            statement.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL must run on 127.0.0.1:5432 (see README): " + e.getMessage(), e);
        }
    }
}
