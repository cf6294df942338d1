package com.sandboxgateway.sanitize;

import com.sandboxgateway.auth.Principal;

/**
 * An upload was sanitized and is about to be sent upstream; the audit keeps what was done (never
 * values).
 */
public record UploadSanitized(String requestId, Principal principal, String filename, SanitizationReport report,
                              java.time.Instant at) {
}
