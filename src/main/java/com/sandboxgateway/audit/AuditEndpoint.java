package com.sandboxgateway.audit;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.util.MimeType;

import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /actuator/audit} (admin role): query the trail by user, team, session, container, time, kind
 * ({@code kind=code}, {@code kind=shell}) and review flag ({@code flag=env_access}), page by page, or export it as JSON Lines
 * ({@code Accept: application/x-ndjson}, or {@code /actuator/audit/export}); {@code /actuator/audit/verify}
 * checks the chain. The transparency log: {@code /checkpoint} (the newest signed checkpoint, {@code text/plain};
 * {@code POST} signs one now), {@code /checkpoint/key} (the verifier key), {@code /proof/inclusion?seq=&size=}
 * and {@code /proof/consistency?from=&to=} (RFC 9162 proofs).
 */
@Component
@Endpoint(id = "audit")
class AuditEndpoint {

    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 10_000;

    private static final MimeType TEXT = MimeType.valueOf("text/plain;charset=UTF-8");

    private final AuditStore store;
    private final JsonMapper json;
    private final AuditTree tree;
    private final ObjectProvider<Checkpoints> checkpoints;

    AuditEndpoint(AuditStore store, JsonMapper json, AuditTree tree, ObjectProvider<Checkpoints> checkpoints) {
        this.store = store;
        this.json = json;
        this.tree = tree;
        this.checkpoints = checkpoints;
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

    /** {@code verify}: the chain check; {@code export}: the query as JSON Lines; {@code checkpoint}: the newest signed checkpoint. */
    @ReadOperation(produces = {"application/json", "application/x-ndjson", "text/plain"})
    Object action(@Selector String action, @Nullable String user, @Nullable String team, @Nullable String session,
                  @Nullable String container, @Nullable String since, @Nullable String until, @Nullable String kind,
                  @Nullable String flag, @Nullable Integer limit) {
        return switch (action) {
            case "verify" -> store.verify();
            case "export" -> jsonLines(filter(user, team, session, container, since, until, kind, flag, limit, null));
            case "checkpoint" -> withCheckpoints(signer -> signer.latest().<Object>map(AuditEndpoint::text).orElseGet(() -> notFound(
                    "No checkpoint has been signed yet; POST /actuator/audit/checkpoint signs one now.")));
            default -> throw new InvalidEndpointRequestException("Unknown audit action '" + action
                    + "'; use verify, export or checkpoint", "unknown action");
        };
    }

    /** {@code checkpoint/key}: the verifier key; {@code proof/inclusion?seq=&size=}, {@code proof/consistency?from=&to=}. */
    @ReadOperation(produces = {"application/json", "text/plain"})
    Object transparency(@Selector String action, @Selector String part, @Nullable Long seq, @Nullable Long size,
                        @Nullable Long from, @Nullable Long to) {
        try {
            return switch (action + "/" + part) {
                case "checkpoint/key" -> withCheckpoints(signer -> text(signer.verifierKey() + "\n"));
                case "proof/inclusion" -> tree.inclusion(required(seq, "seq"), required(size, "size"));
                case "proof/consistency" -> tree.consistency(required(from, "from"), required(to, "to"));
                default -> throw new InvalidEndpointRequestException("Unknown audit path '" + action + "/" + part
                        + "'; use checkpoint/key, proof/inclusion or proof/consistency", "unknown action");
            };
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), "bad tree size");
        }
    }

    /** {@code POST checkpoint}: signs the tree head now (recorded, with the admin, as a checkpoint record) and answers the note. */
    @WriteOperation(produces = "text/plain")
    Object sign(@Selector String action, SecurityContext context) {
        if (!action.equals("checkpoint")) {
            throw new InvalidEndpointRequestException("Unknown audit action '" + action + "'; POST checkpoint", "unknown action");
        }
        String admin = context.getPrincipal() == null ? "unknown" : context.getPrincipal().getName();
        return withCheckpoints(signer -> text(signer.sign(admin)));
    }

    private Object withCheckpoints(Function<Checkpoints, Object> answer) {
        Checkpoints signer = checkpoints.getIfAvailable();
        return signer == null ? notFound("Checkpoints are off: set gateway.audit.signing-key (an Ed25519 key) to sign the audit tree.")
                : answer.apply(signer);
    }

    private static WebEndpointResponse<String> text(String body) {
        return new WebEndpointResponse<>(body, TEXT);
    }

    private static WebEndpointResponse<ProblemDetail> notFound(String detail) {
        return new WebEndpointResponse<>(ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, detail), WebEndpointResponse.STATUS_NOT_FOUND,
                MimeType.valueOf("application/problem+json"));
    }

    private static long required(Long value, String name) {
        if (value == null) {
            throw new InvalidEndpointRequestException(name + " is required", "missing " + name);
        }
        return value;
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

    /**
     * A record kind, in any case, or {@code code} (executed code blocks) and {@code shell} (hosted shell calls);
     * an unknown one is refused with the list, so a typo does not read as "no records".
     */
    private static String kind(String value) {
        if (value == null) {
            return null;
        }
        if (value.equalsIgnoreCase("code")) {
            return AuditRecord.Kind.CODE_EXECUTION.name();
        }
        if (value.equalsIgnoreCase("shell")) {
            return AuditRecord.Kind.SHELL_EXECUTION.name();
        }
        for (AuditRecord.Kind kind : AuditRecord.Kind.values()) {
            if (kind.name().equalsIgnoreCase(value)) {
                return kind.name();
            }
        }
        throw new InvalidEndpointRequestException("kind must be code, shell or one of " + Arrays.toString(AuditRecord.Kind.values())
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
