package com.sandboxgateway.startup;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * A database that cannot be reached at start-up (Flyway migrates before the gateway serves): names
 * {@code spring.datasource.url} without its query string, where a password may hide.
 */
class DatabaseUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<SQLException> {

    /** SQLSTATE class 08: connection exceptions; 28: invalid authorization. */
    private static final String CONNECTION_CLASS = "08";
    private static final String AUTHORIZATION_CLASS = "28";

    private final Environment environment;

    DatabaseUnreachableFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SQLException cause) {
        String state = cause.getSQLState() == null ? "" : cause.getSQLState();
        boolean refusedLogin = state.startsWith(AUTHORIZATION_CLASS);
        if (!refusedLogin && !state.startsWith(CONNECTION_CLASS) && findCause(cause, ConnectException.class) == null
                && findCause(cause, UnknownHostException.class) == null) {
            return null;
        }
        String url = withoutQuery(environment.getProperty("spring.datasource.url", "(not set)"));
        String description = (refusedLogin ? "The database at " + url + " refused the login"
                : "The database at " + url + " (spring.datasource.url) cannot be reached")
                + ": " + cause.getMessage();
        String action = refusedLogin
                ? "Check spring.datasource.username and spring.datasource.password (SPRING_DATASOURCE_USERNAME, "
                        + "SPRING_DATASOURCE_PASSWORD)."
                : "Start the database, or point spring.datasource.url (SPRING_DATASOURCE_URL) at one that runs; "
                        + "without it the embedded H2 file under ./data is used.";
        return new FailureAnalysis(description, action, cause);
    }

    private static String withoutQuery(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query) + "?…";
    }
}
