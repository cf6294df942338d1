package com.sandboxgateway.auth;

import java.util.Objects;
import java.util.Set;

/**
 * Who is calling: the user and team a gateway key or token belongs to, and the roles it grants.
 *
 * @param keyId the run-time key used ({@code POST /actuator/keys}), or {@code null} for a configured key or a token
 * @param limits what that key narrows of the team's policy; {@link KeyLimits#NONE} otherwise
 */
public record Principal(String user, String team, Set<String> roles, String keyId, KeyLimits limits) {

    public static final String ADMIN_ROLE = "admin";

    public Principal {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(team, "team");
        roles = Set.copyOf(roles);
        limits = limits == null ? KeyLimits.NONE : limits;
    }

    /** A principal of a configured key or a token: no key id, no limits of its own. */
    public Principal(String user, String team, Set<String> roles) {
        this(user, team, roles, null, KeyLimits.NONE);
    }

    public boolean isAdmin() {
        return roles.contains(ADMIN_ROLE);
    }
}
