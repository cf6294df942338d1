package com.sandboxgateway.sanitize;

import java.time.Instant;
import java.util.List;

import com.sandboxgateway.auth.Principal;

/**
 * A file was sanitized and is about to be sent upstream; the audit keeps what was done (never values).
 *
 * @param location where the file sat in a request ({@code input[0].content[1]}), or {@code null} for an upload
 * @param instructions where the first values that read like instructions to a model sit (empty: none)
 * @param instructionsFound how many values matched in all
 */
public record UploadSanitized(String requestId, Principal principal, String filename, String location,
                              SanitizationReport report, List<PlantedInstruction> instructions, long instructionsFound,
                              Instant at) {

    public UploadSanitized {
        instructions = List.copyOf(instructions);
    }
}
