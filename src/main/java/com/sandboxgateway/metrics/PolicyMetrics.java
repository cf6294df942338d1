package com.sandboxgateway.metrics;

import java.util.Locale;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.sandboxgateway.sanitize.SanitizationMetrics;
import com.sandboxgateway.sanitize.UploadSanitized;
import com.sandboxgateway.secrets.LocatedFinding;
import com.sandboxgateway.secrets.SecretsMetrics;
import com.sandboxgateway.secrets.SensitiveDataFound;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts what the upload and prompt guards report: sanitized files, rows and columns, and secret and
 * personal-data findings by rule. Tags are bounded sets
 * (teams, codes, rule ids), never users or values.
 */
@Component
class PolicyMetrics {

    private final MeterRegistry meters;

    PolicyMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    @EventListener
    void sanitized(UploadSanitized upload) {
        String team = upload.principal().team();
        meters.counter(SanitizationMetrics.FILES, "team", team).increment();
        meters.counter(SanitizationMetrics.ROWS, "team", team).increment(upload.report().rows());
        meters.counter(SanitizationMetrics.COLUMNS, "team", team, "action", "dropped").increment(upload.report().dropped().size());
        meters.counter(SanitizationMetrics.COLUMNS, "team", team, "action", "pseudonymized")
                .increment(upload.report().pseudonymized().size());
    }

    @EventListener
    void found(SensitiveDataFound found) {
        for (LocatedFinding finding : found.findings()) {
            meters.counter(SecretsMetrics.FINDINGS, "kind", finding.kind().name().toLowerCase(Locale.ROOT), "rule", finding.ruleId(),
                    "team", found.principal().team()).increment();
        }
    }
}
