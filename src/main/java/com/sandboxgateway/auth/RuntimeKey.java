package com.sandboxgateway.auth;

import java.time.Instant;
import java.util.Set;

/**
 * A gateway key issued at run time, as the listing shows it: never the key, never its hash.
 *
 * @param prefix the key's first characters, to recognise it
 * @param expiresAt {@code null}: no expiry
 * @param revokedAt {@code null} while the key is accepted
 * @param lastUsedAt to the minute; {@code null} before the first use
 * @param previousValidUntil after a rotation, until when the key it replaced is still accepted
 */
public record RuntimeKey(String id, String prefix, String user, String team, Set<String> roles, Instant createdAt,
                         String createdBy, Instant expiresAt, Instant revokedAt, Instant lastUsedAt,
                         Instant previousValidUntil, KeyLimits limits) {

    public RuntimeKey {
        roles = Set.copyOf(roles);
    }

    Principal principal() {
        return new Principal(user, team, roles, id, limits);
    }
}
