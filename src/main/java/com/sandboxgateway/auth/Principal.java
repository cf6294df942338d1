package com.sandboxgateway.auth;

import java.util.Objects;
import java.util.Set;

/** Who is calling: the user and team a gateway key belongs to, and the roles it grants. */
public record Principal(String user, String team, Set<String> roles) {

    public static final String ADMIN_ROLE = "admin";

    public Principal {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(team, "team");
        roles = Set.copyOf(roles);
    }

    public boolean isAdmin() {
        return roles.contains(ADMIN_ROLE);
    }
}
