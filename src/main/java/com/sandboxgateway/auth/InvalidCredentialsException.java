package com.sandboxgateway.auth;

/**
 * A bearer that authenticates no one. The message says what was wrong and what to do, and is safe to
 * send to the client: it never holds the key or the token.
 */
public final class InvalidCredentialsException extends RuntimeException {

    public InvalidCredentialsException(String message) {
        super(message, null, false, false);
    }
}
