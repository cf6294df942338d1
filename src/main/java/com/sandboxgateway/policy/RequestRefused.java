package com.sandboxgateway.policy;

import java.time.Instant;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.auth.Principal;

/** The gateway refused an authenticated request; the audit keeps who, what and why (never a secret). */
public record RequestRefused(String requestId, Principal principal, String method, String path, ErrorCode code,
                             String message, Instant at) {
}
