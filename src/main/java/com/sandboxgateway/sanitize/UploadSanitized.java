package com.sandboxgateway.sanitize;

import com.sandboxgateway.auth.Principal;

/**
 * An upload was sanitized and is about to be sent upstream; the audit keeps what was done (never
 * values).
 *
 * @param instructions where the first values that read like instructions to a model sit (empty: none)
 * @param instructionsFound how many values matched in all
 */
public record UploadSanitized(String requestId, Principal principal, String filename, SanitizationReport report,
                              java.util.List<PlantedInstruction> instructions, long instructionsFound, java.time.Instant at) {

    public UploadSanitized {
        instructions = java.util.List.copyOf(instructions);
    }
}
