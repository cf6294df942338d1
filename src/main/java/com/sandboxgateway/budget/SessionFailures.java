package com.sandboxgateway.budget;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * How many code blocks in a row have failed in a session, read from the audit trail (each code record
 * keeps the count it made, in {@link #FIELD}), so every replica sees the same answer without sharing memory.
 * The audit hands over its query ({@link LatestCodeRecord}), so the budget never depends on the audit.
 */
public final class SessionFailures {

    /** The field of a code record's details that keeps the session's failures in a row with it. */
    public static final String FIELD = "failures_in_a_row";

    private static final Logger log = LoggerFactory.getLogger(SessionFailures.class);

    private final LatestCodeRecord records;
    private final JsonMapper json;

    /** The audit trail's query for the details of a session's latest code or shell-call record. */
    @FunctionalInterface
    public interface LatestCodeRecord {

        /** @throws DataAccessException when the audit store cannot answer */
        Optional<String> details(String user, String session);
    }

    public SessionFailures(LatestCodeRecord records, JsonMapper json) {
        this.records = records;
        this.json = json;
    }

    /**
     * The count of the user's session's latest code block; 0 when it succeeded or there is none.
     *
     * @throws DataAccessException when the audit store cannot answer
     */
    public int inARow(String user, String session) {
        return session == null ? 0 : records.details(user, session).map(this::count).orElse(0);
    }

    /** {@link #inARow}, or 0 when the store cannot answer: for flags, which must never hold an answer back. */
    public int inARowOrZero(String user, String session) {
        try {
            return inARow(user, session);
        } catch (DataAccessException | TransactionException e) {
            log.warn("Audit store unreachable ({}); the failure streak of a session counts from 0", e.getClass().getSimpleName());
            return 0;
        }
    }

    private int count(String details) {
        try {
            return json.readTree(details).path(FIELD).asInt(0);
        } catch (JacksonException e) {
            return 0;
        }
    }
}
