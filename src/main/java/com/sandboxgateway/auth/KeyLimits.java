package com.sandboxgateway.auth;

import java.util.Set;

/**
 * Limits one run-time key sets on top of its team's policy. They only ever narrow it: a request must
 * pass both the team's limit and the key's, and a tool must be allowed by both.
 *
 * @param requestsPerMinute requests of this key per minute (its own bucket, beside the user's); {@code null}: no extra limit
 * @param tools tool types the key may use; {@code null}: the team's
 * @param turnsPerSession executed code blocks per session; {@code null}: the team's
 */
public record KeyLimits(Integer requestsPerMinute, Set<String> tools, Integer turnsPerSession) {

    public static final KeyLimits NONE = new KeyLimits(null, null, null);

    public KeyLimits {
        tools = tools == null ? null : Set.copyOf(tools);
        if (requestsPerMinute != null && requestsPerMinute < 1 || turnsPerSession != null && turnsPerSession < 1) {
            throw new IllegalArgumentException("requestsPerMinute and turnsPerSession must be at least 1");
        }
    }
}
