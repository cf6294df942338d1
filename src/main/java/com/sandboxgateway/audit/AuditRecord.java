package com.sandboxgateway.audit;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.UUID;

/**
 * One audit entry: an executed code block ({@link Kind#CODE_EXECUTION}) or a policy decision. Never
 * holds a secret, a pseudonymized value or a prompt; code and outputs are what the sandbox ran and
 * printed. Optional fields are {@code null} when they do not apply.
 *
 * @param recordId unique per record; replaying a spooled record twice stores it once
 * @param callId the {@code code_interpreter_call} id; one record per call, whichever path saw it first
 * @param outputsTruncated the outputs were cut to the configured cap
 * @param details kind-specific facts as a JSON object (refusal code, sanitization counts, ...)
 * @param createdAt truncated to microseconds, the precision both databases keep
 */
public record AuditRecord(String recordId, Kind kind, String callId, String requestId, String upstreamRequestId,
                          String user, String team, String session, String responseId, String containerId, String model,
                          String status, String code, String codeSha256, String outputs, boolean outputsTruncated,
                          String details, Instant createdAt) {

    /** What an audit record is about. */
    public enum Kind { CODE_EXECUTION, POLICY_REFUSAL, SANITIZATION, SECRET_FINDING, ADMIN_ACTION }

    public AuditRecord {
        Objects.requireNonNull(recordId, "recordId");
        Objects.requireNonNull(kind, "kind");
        createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
    }

    /** A policy record (refusal, sanitization, finding) with its facts as JSON. */
    public static AuditRecord policy(Kind kind, String requestId, String user, String team, String session, String status,
                                     String details, Instant at) {
        return new AuditRecord(UUID.randomUUID().toString(), kind, null, requestId, null, user, team, session, null, null, null,
                status, null, null, null, false, details, at);
    }
}
