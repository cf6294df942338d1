package com.sandboxgateway.console;

import java.util.Optional;

import org.springframework.web.servlet.function.ServerRequest;

import com.sandboxgateway.auth.Principal;

/**
 * The admin a console request acts for, and the session's anti-forgery token when it came with the
 * session cookie ({@code null} for a bearer header, which a cross-site form cannot send).
 */
record ConsoleUser(Principal principal, String csrfToken) {

    private static final String ATTRIBUTE = ConsoleUser.class.getName();

    /** Attaches the user to the request, for the handlers behind {@link ConsoleAccess}. */
    void attachTo(ServerRequest request) {
        request.attributes().put(ATTRIBUTE, this);
    }

    /** The user {@link ConsoleAccess} let through; every guarded handler has one. */
    static ConsoleUser of(ServerRequest request) {
        return Optional.ofNullable((ConsoleUser) request.attributes().get(ATTRIBUTE))
                .orElseThrow(() -> new IllegalStateException("a console handler ran without ConsoleAccess"));
    }
}
