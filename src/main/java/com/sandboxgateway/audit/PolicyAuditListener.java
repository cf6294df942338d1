package com.sandboxgateway.audit;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.policy.RequestRefused;
import com.sandboxgateway.policy.input.UngovernedInputForwarded;
import com.sandboxgateway.sanitize.InjectionScreening;
import com.sandboxgateway.sanitize.PlantedInstruction;
import com.sandboxgateway.sanitize.SanitizationReport;
import com.sandboxgateway.sanitize.UploadSanitized;
import com.sandboxgateway.secrets.SensitiveDataFound;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns policy decisions into audit records: refusals, sanitized uploads (counts and column names,
 * never values) and instructions found in uploaded data (flag {@code instruction_in_data}: rule,
 * category, line and column, never the text; on the refusal when the policy blocks them) and parts
 * forwarded ungoverned (flag {@code ungoverned_input}).
 */
@Component
class PolicyAuditListener {

    private static final Logger log = LoggerFactory.getLogger(PolicyAuditListener.class);

    private final AuditLog auditLog;
    private final JsonMapper json;

    PolicyAuditListener(AuditLog auditLog, JsonMapper json) {
        this.auditLog = auditLog;
        this.json = json;
    }

    /**
     * A refusal already failed its request; if even the spool fails, the refusal stands and the loss is logged.
     * Data refused for the instructions it holds carries the flag too, so a reviewer's {@code flag=instruction_in_data}
     * finds what was blocked beside what was let through.
     */
    @EventListener
    void on(RequestRefused refusal) {
        ObjectNode details = json.createObjectNode();
        details.put("code", refusal.code().code());
        details.put("method", refusal.method());
        details.put("path", refusal.path());
        details.put("message", refusal.message());
        try {
            auditLog.record(AuditRecord.policy(AuditRecord.Kind.POLICY_REFUSAL, refusal.requestId(), refusal.principal().user(),
                    refusal.principal().team(), null, refusal.code().code(), json.writeValueAsString(details), refusal.at(),
                    refusal.code() == ErrorCode.INSTRUCTION_IN_DATA ? List.of(InjectionScreening.FLAG) : List.of()));
        } catch (GatewayException e) {
            log.error("Refusal {} of request {} could not be audited", refusal.code().code(), refusal.requestId());
        }
    }

    /** Rule, kind and location of each finding (the first 100, and how many in all), never a value. */
    @EventListener
    void on(SensitiveDataFound found) {
        ObjectNode details = json.createObjectNode();
        details.put("handling", found.handling());
        details.put("total", found.findings().size());
        var list = details.putArray("findings");
        found.findings().stream().limit(100).forEach(finding -> list.addObject().put("rule", finding.ruleId())
                .put("kind", finding.kind().name()).put("location", finding.location()));
        auditLog.record(AuditRecord.policy(AuditRecord.Kind.SECRET_FINDING, found.requestId(), found.principal().user(),
                found.principal().team(), null, found.handling(), json.writeValueAsString(details), found.at()));
    }

    /**
     * Runs before the request is sent, so what passed ungoverned is on record (flag {@code ungoverned_input}:
     * the path and type of each part, never its content); if it cannot be recorded, the request fails.
     */
    @EventListener
    void on(UngovernedInputForwarded forwarded) {
        ObjectNode details = json.createObjectNode();
        var list = details.putArray("ungoverned");
        forwarded.places().forEach(place -> list.addObject().put("path", place.path()).put("union", place.union())
                .put("type", place.type()));
        auditLog.record(AuditRecord.policy(AuditRecord.Kind.UNGOVERNED_INPUT, forwarded.requestId(),
                forwarded.principal().user(), forwarded.principal().team(), null, "forwarded", json.writeValueAsString(details),
                forwarded.at(), List.of(UngovernedInputForwarded.FLAG)));
    }

    /** Runs before the upload is sent; if it cannot be recorded, the upload fails with audit_unavailable. */
    @EventListener
    void on(UploadSanitized upload) {
        ObjectNode details = json.createObjectNode();
        details.put("filename", upload.filename());
        if (upload.location() != null) {
            details.put("location", upload.location());
        }
        report(details, upload.report());
        details.put("key_id", upload.report().keyId());
        if (upload.instructionsFound() > 0) {
            instructions(details, upload.instructions(), upload.instructionsFound());
        }
        auditLog.record(AuditRecord.policy(AuditRecord.Kind.SANITIZATION, upload.requestId(), upload.principal().user(),
                upload.principal().team(), null, "sanitized", json.writeValueAsString(details), upload.at(),
                upload.instructionsFound() > 0 ? List.of(InjectionScreening.FLAG) : List.of()));
    }

    /** Format, columns and rows; for a workbook or an archive, the same per sheet or entry. */
    private static void report(ObjectNode details, SanitizationReport report) {
        details.put("format", report.format());
        report.dropped().forEach(details.putArray("dropped")::add);
        report.pseudonymized().forEach(details.putArray("pseudonymized")::add);
        details.put("rows", report.rows());
        if (!report.parts().isEmpty()) {
            var parts = details.putArray("parts");
            for (SanitizationReport.Part part : report.parts()) {
                ObjectNode node = parts.addObject().put("kind", part.kind()).put("name", part.name());
                report(node, part.report());
                if (!part.notes().isEmpty()) {
                    part.notes().forEach(node.putArray("notes")::add);
                }
            }
        }
    }

    private static void instructions(ObjectNode details, List<PlantedInstruction> found, long total) {
        ObjectNode instructions = details.putObject("instructions");
        instructions.put("total", total);
        var list = instructions.putArray("found");
        found.forEach(instruction -> list.addObject().put("rule", instruction.ruleId()).put("category", instruction.category())
                .put("line", instruction.line()).put("column", instruction.column()));
    }
}
