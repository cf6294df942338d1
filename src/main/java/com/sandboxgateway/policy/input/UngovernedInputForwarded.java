package com.sandboxgateway.policy.input;

import java.time.Instant;
import java.util.List;

import com.sandboxgateway.auth.Principal;

/**
 * A request went upstream with parts the gateway does not govern, because
 * {@code gateway.policy.org.unknown-input} is {@code allow}; the audit flags its record.
 */
public record UngovernedInputForwarded(String requestId, Principal principal, List<InputPlaces.Unsupported> places,
                                       Instant at) {

    /** The audit flag of such a record. */
    public static final String FLAG = "ungoverned_input";

    public UngovernedInputForwarded {
        places = List.copyOf(places);
    }
}
