package com.sandboxgateway.audit;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * The audit trail's health: UP while records go straight to the database, DEGRADED (still serving)
 * while they wait in the spool, with the spool's depth either way.
 */
@Component("auditStore")
class AuditHealthIndicator implements HealthIndicator {

    static final Status DEGRADED = new Status("DEGRADED", "audit records are spooled until the database is back");

    private final SpoolingAuditLog auditLog;

    AuditHealthIndicator(SpoolingAuditLog auditLog) {
        this.auditLog = auditLog;
    }

    @Override
    public Health health() {
        long depth = auditLog.spoolDepth();
        return (depth == 0 ? Health.up() : Health.status(DEGRADED)).withDetail("spoolDepth", depth).build();
    }
}
