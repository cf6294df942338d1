package com.sandboxgateway.admin;

/**
 * The admin a management request was let through as ({@link AdminAccessFilter}): its user, and its team,
 * which the audit records beside it whether the admin came with a key or a token.
 */
record AdminPrincipal(String user, String team) implements java.security.Principal {

    @Override
    public String getName() {
        return user;
    }
}
