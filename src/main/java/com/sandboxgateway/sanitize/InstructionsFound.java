package com.sandboxgateway.sanitize;

import java.time.Instant;
import java.util.List;

import com.sandboxgateway.auth.Principal;

/**
 * A file sent inline ({@code input_file.file_data} of a response request) holds values that read like
 * instructions to a model, and the policy lets it through; the audit flags it. Never the text.
 *
 * @param location where the file sits in the request, e.g. {@code input[0].content[1]}
 * @param filename the file's {@code filename}, or {@code null}
 * @param instructions the first findings, in file order
 * @param total how many values matched in all
 */
public record InstructionsFound(String requestId, Principal principal, String location, String filename,
                                List<PlantedInstruction> instructions, long total, Instant at) {

    public InstructionsFound {
        instructions = List.copyOf(instructions);
    }
}
