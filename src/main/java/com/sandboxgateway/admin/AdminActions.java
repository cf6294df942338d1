package com.sandboxgateway.admin;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.stereotype.Component;

import com.sandboxgateway.audit.AuditLog;
import com.sandboxgateway.audit.AuditRecord;

import tools.jackson.databind.json.JsonMapper;

/** Every admin write goes to the audit trail (who, what, on which object) before it takes effect. */
@Component
class AdminActions {

    private final AuditLog auditLog;
    private final JsonMapper json;
    private final Clock clock;

    AdminActions(AuditLog auditLog, JsonMapper json, Clock clock) {
        this.auditLog = auditLog;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Records an admin action; throws (and the action does not happen) when it cannot be recorded.
     *
     * @param details what was acted on, e.g. {@code {"action": "reset_rate_limit", "user": "alice"}}
     */
    void record(SecurityContext context, Map<String, String> details) {
        record(context.getPrincipal(), details);
    }

    /** The same, for routes outside the actuator's endpoint model, which have the request's principal. */
    void record(java.security.Principal who, Map<String, String> details) {
        String admin = who == null ? "unknown" : who.getName();
        String team = who instanceof AdminPrincipal principal ? principal.team() : null;
        auditLog.record(AuditRecord.policy(AuditRecord.Kind.ADMIN_ACTION, "admin-" + UUID.randomUUID(), admin, team, null,
                details.get("action"), json.writeValueAsString(details), clock.instant()));
    }
}
