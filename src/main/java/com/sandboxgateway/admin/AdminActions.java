package com.sandboxgateway.admin;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.stereotype.Component;

import com.sandboxgateway.audit.AuditLog;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.Principal;

import tools.jackson.databind.json.JsonMapper;

/** Every admin write goes to the audit trail (who, what, on which object) before it takes effect. */
@Component
class AdminActions {

    private final AuditLog auditLog;
    private final ApiKeyAuthenticator authenticator;
    private final JsonMapper json;
    private final Clock clock;

    AdminActions(AuditLog auditLog, ApiKeyAuthenticator authenticator, JsonMapper json, Clock clock) {
        this.auditLog = auditLog;
        this.authenticator = authenticator;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Records an admin action; throws (and the action does not happen) when it cannot be recorded.
     *
     * @param details what was acted on, e.g. {@code {"action": "reset_rate_limit", "user": "alice"}}
     */
    void record(SecurityContext context, Map<String, String> details) {
        record(context.getPrincipal() == null ? "unknown" : context.getPrincipal().getName(), details);
    }

    /** The same, for routes outside the actuator's endpoint model, which know the admin by name. */
    void record(String admin, Map<String, String> details) {
        String team = authenticator.principalOf(admin).map(Principal::team).orElse(null);
        auditLog.record(AuditRecord.policy(AuditRecord.Kind.ADMIN_ACTION, "admin-" + UUID.randomUUID(), admin, team, null,
                details.get("action"), json.writeValueAsString(details), clock.instant()));
    }
}
