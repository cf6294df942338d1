package com.sandboxgateway.secrets;

import java.time.Instant;
import java.util.List;

import com.sandboxgateway.auth.Principal;

/**
 * Credentials or personal data were found in a request and handled as the policy says; the audit
 * keeps rule, kind and location of each, never the value.
 *
 * @param handling what was done: {@code blocked}, {@code redacted}, {@code pseudonymized}, {@code reported}
 */
public record SensitiveDataFound(String requestId, Principal principal, List<LocatedFinding> findings, String handling,
                                 Instant at) {

    public SensitiveDataFound {
        findings = List.copyOf(findings);
    }
}
