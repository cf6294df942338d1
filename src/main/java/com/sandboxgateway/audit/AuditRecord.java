package com.sandboxgateway.audit;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * One audit entry: an executed code block ({@link Kind#CODE_EXECUTION}), a hosted shell call
 * ({@link Kind#SHELL_EXECUTION}) or a policy decision. Never holds a secret, a pseudonymized value or a
 * prompt; code and outputs are what the sandbox ran and printed. Optional fields are {@code null} when they do not apply.
 *
 * @param recordId unique per record; replaying a spooled record twice stores it once
 * @param callId the {@code code_interpreter_call} or {@code shell_call} id; one record per call, whichever path
 *        saw it first
 * @param outputs the call's outputs as JSON text; answered as JSON (see {@link EmbeddedJson}) unless cut to the cap
 * @param outputsTruncated the outputs were cut to the configured cap
 * @param details kind-specific facts as a JSON object (refusal code, sanitization counts, ...), answered as JSON
 * @param createdAt truncated to microseconds, the precision both databases keep
 * @param flags review signals a reviewer should look at ({@code env_access}, {@code instruction_in_data},
 *        {@code runaway_session}, ...): names only, sorted and distinct, their details in {@code details}
 * @param traceId the OpenTelemetry trace of the request that made the record, when tracing is on; else {@code null}
 */
public record AuditRecord(String recordId, Kind kind, String callId, String requestId, String upstreamRequestId,
                          String user, String team, String session, String responseId, String containerId, String model,
                          String status, String code, String codeSha256,
                          @JsonSerialize(using = EmbeddedJson.Writer.class) @JsonDeserialize(using = EmbeddedJson.Reader.class)
                          String outputs, boolean outputsTruncated,
                          @JsonSerialize(using = EmbeddedJson.Writer.class) @JsonDeserialize(using = EmbeddedJson.Reader.class)
                          String details, Instant createdAt, List<String> flags, String traceId) {

    /** A flag name: lower case letters, digits and '_', as rule files define them. */
    static final Pattern FLAG = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    /** The random bits of record ids, as unpredictable as those of {@link UUID#randomUUID()}. */
    private static final SecureRandom ID_RANDOM = new SecureRandom();

    /**
     * What an audit record is about. A file (uploaded, or sent inline in a request) holding instructions
     * aimed at a model carries that flag on its {@code SANITIZATION} record. A {@code CHECKPOINT} holds a
     * signed head of the audit tree. A {@code SHELL_EXECUTION} is a hosted shell call: its commands, one per
     * line, are its code, its stdout, stderr and outcomes its outputs.
     */
    public enum Kind {
        CODE_EXECUTION, POLICY_REFUSAL, SANITIZATION, SECRET_FINDING, ADMIN_ACTION, CHECKPOINT, UNGOVERNED_INPUT, SHELL_EXECUTION,
        /** A request that offered code execution reached OpenAI, and no answer came that named its response. */
        UNSEEN_RESPONSE;

        /** Whether the record is of something the sandbox ran in a container: a code block or a shell call. */
        public boolean isExecution() {
            return this == CODE_EXECUTION || this == SHELL_EXECUTION;
        }
    }

    public AuditRecord {
        Objects.requireNonNull(recordId, "recordId");
        Objects.requireNonNull(kind, "kind");
        createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
        flags = flags == null ? List.of() : flags.stream().distinct().sorted().toList();
        for (String flag : flags) {
            if (!FLAG.matcher(flag).matches()) {
                throw new IllegalArgumentException("not a flag name: '" + flag + "'");
            }
        }
    }

    /** A record without a trace id. */
    public AuditRecord(String recordId, Kind kind, String callId, String requestId, String upstreamRequestId, String user,
                       String team, String session, String responseId, String containerId, String model, String status,
                       String code, String codeSha256, String outputs, boolean outputsTruncated, String details,
                       Instant createdAt, List<String> flags) {
        this(recordId, kind, callId, requestId, upstreamRequestId, user, team, session, responseId, containerId, model, status,
                code, codeSha256, outputs, outputsTruncated, details, createdAt, flags, null);
    }

    /** A record without flags. */
    public AuditRecord(String recordId, Kind kind, String callId, String requestId, String upstreamRequestId, String user,
                       String team, String session, String responseId, String containerId, String model, String status,
                       String code, String codeSha256, String outputs, boolean outputsTruncated, String details,
                       Instant createdAt) {
        this(recordId, kind, callId, requestId, upstreamRequestId, user, team, session, responseId, containerId, model, status,
                code, codeSha256, outputs, outputsTruncated, details, createdAt, List.of());
    }

    /** This record as made within the given trace; a record that names its trace already keeps it. */
    public AuditRecord withTraceId(String trace) {
        return trace == null || traceId != null ? this : new AuditRecord(recordId, kind, callId, requestId, upstreamRequestId,
                user, team, session, responseId, containerId, model, status, code, codeSha256, outputs, outputsTruncated,
                details, createdAt, flags, trace);
    }

    /**
     * A new record id: a UUID of version 7 (RFC 9562), its first 48 bits the current Unix time in milliseconds and the
     * other 74 random. Ids made later sort after those made earlier, so the unique index on {@code record_id} grows at
     * its end like the one on {@code seq}, rather than taking every insert into a random page that the store then
     * reads back and writes out whole (a random version 4 UUID cost that on every append).
     */
    public static String newId() {
        long msb = System.currentTimeMillis() << 16 | 0x7000L | ID_RANDOM.nextInt(1 << 12);
        long lsb = ID_RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb).toString();
    }

    /** A policy record (refusal, sanitization, finding) with its facts as JSON. */
    public static AuditRecord policy(Kind kind, String requestId, String user, String team, String session, String status,
                                     String details, Instant at) {
        return policy(kind, requestId, user, team, session, status, details, at, List.of());
    }

    /** A policy record carrying review flags. */
    public static AuditRecord policy(Kind kind, String requestId, String user, String team, String session, String status,
                                     String details, Instant at, List<String> flags) {
        return new AuditRecord(newId(), kind, null, requestId, null, user, team, session, null, null, null,
                status, null, null, null, false, details, at, flags);
    }
}
