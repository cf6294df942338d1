package com.sandboxgateway.audit;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /actuator/audit} (admin role): query the trail by user, team, session, container, time and
 * review flag ({@code flag=env_access}), page by page, or export it as JSON Lines
 * ({@code Accept: application/x-ndjson}, or {@code /actuator/audit/export}); {@code /actuator/audit/verify}
 * checks the chain.
 */
@Component
@Endpoint(id = "audit")
class AuditEndpoint {

    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 10_000;

    private final JdbcAuditStore store;
    private final JsonMapper json;

    AuditEndpoint(JdbcAuditStore store, JsonMapper json) {
        this.store = store;
        this.json = json;
    }

    /** A page of records and the next cursor; with {@code Accept: application/x-ndjson}, every match as JSON Lines. */
    @ReadOperation(produces = {"application/json", "application/x-ndjson"})
    Object query(@Nullable String user, @Nullable String team, @Nullable String session, @Nullable String container,
                 @Nullable String since, @Nullable String until, @Nullable String kind, @Nullable String flag,
                 @Nullable Integer limit, @Nullable Long after, AuditFormat format) {
        AuditQuery query = filter(user, team, session, container, since, until, kind, flag, limit, after);
        if (format == AuditFormat.JSON_LINES) {
            return jsonLines(query);
        }
        List<StoredRecord> records = store.query(query);
        int requested = limit == null ? DEFAULT_LIMIT : limit;
        Long next = records.size() == Math.min(requested, MAX_LIMIT) && !records.isEmpty() ? records.getLast().seq() : null;
        return new AuditPage(records, next);
    }

    /** {@code verify}: the chain check; {@code export}: the query as JSON Lines. */
    @ReadOperation(produces = {"application/json", "application/x-ndjson"})
    Object action(@Selector String action, @Nullable String user, @Nullable String team, @Nullable String session,
                  @Nullable String container, @Nullable String since, @Nullable String until, @Nullable String kind,
                  @Nullable String flag, @Nullable Integer limit) {
        return switch (action) {
            case "verify" -> store.verify();
            case "export" -> jsonLines(filter(user, team, session, container, since, until, kind, flag, limit, null));
            default -> throw new InvalidEndpointRequestException("Unknown audit action '" + action + "'; use verify or export",
                    "unknown action");
        };
    }

    private String jsonLines(AuditQuery query) {
        StringBuilder lines = new StringBuilder();
        store.forEach(query, stored -> lines.append(json.writeValueAsString(stored)).append('\n'));
        return lines.toString();
    }

    private static AuditQuery filter(String user, String team, String session, String container, String since, String until,
                                    String kind, String flag, Integer limit, Long after) {
        int size = limit == null ? DEFAULT_LIMIT : limit;
        if (size < 1 || size > MAX_LIMIT) {
            throw new InvalidEndpointRequestException("limit must be between 1 and " + MAX_LIMIT + ", not " + size, "bad limit");
        }
        if (flag != null && !AuditRecord.FLAG.matcher(flag).matches()) {
            throw new InvalidEndpointRequestException("flag must be a flag name such as env_access (lower case letters, digits, '_')",
                    "bad flag");
        }
        return new AuditQuery(user, team, session, container, instant(since, "since"), instant(until, "until"), kind(kind), flag,
                after, size);
    }

    /** A record kind, in any case; an unknown one is refused with the list, so a typo does not read as "no records". */
    private static String kind(String value) {
        if (value == null) {
            return null;
        }
        for (AuditRecord.Kind kind : AuditRecord.Kind.values()) {
            if (kind.name().equalsIgnoreCase(value)) {
                return kind.name();
            }
        }
        throw new InvalidEndpointRequestException("kind must be one of " + Arrays.toString(AuditRecord.Kind.values())
                + ", not '" + value + "'", "bad kind");
    }

    private static Instant instant(String value, String name) {
        try {
            return value == null ? null : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidEndpointRequestException(name + " must be an ISO-8601 instant such as 2026-11-29T10:00:00Z, not '"
                    + value + "'", "bad " + name);
        }
    }

    /** One page of records, and the cursor ({@code after}) for the next, or null at the end. */
    record AuditPage(List<StoredRecord> records, Long next) {
    }
}
