package com.sandboxgateway.sanitize;

import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.review.InjectionDetector;
import com.sandboxgateway.secrets.SecretsMetrics;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The injection policy for uploaded data ({@code gateway.policy.org.injection}): the detector, whether a
 * finding blocks the file, and the {@code gateway.findings} metric. Shared; each file gets its own
 * {@link InstructionCheck}.
 */
public final class InjectionScreening {

    /** The flag on audit records and in the header. */
    public static final String FLAG = "instruction_in_data";

    private final InjectionDetector detector;
    private final boolean block;
    private final MeterRegistry meters;

    public InjectionScreening(InjectionDetector detector, PolicyProperties.InjectionAction action, MeterRegistry meters) {
        this.detector = detector;
        this.block = action == PolicyProperties.InjectionAction.BLOCK;
        this.meters = meters;
    }

    /** A fresh check for one file of {@code team}. */
    public InstructionCheck forFile(String team) {
        return new InstructionCheck(this, team);
    }

    InjectionDetector detector() {
        return detector;
    }

    boolean blocks() {
        return block;
    }

    void counted(PlantedInstruction found, String team) {
        meters.counter(SecretsMetrics.FINDINGS, "kind", "injection", "rule", found.ruleId(), "team", team).increment();
    }
}
