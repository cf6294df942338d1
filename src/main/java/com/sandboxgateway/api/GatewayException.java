package com.sandboxgateway.api;

import java.time.Duration;

/**
 * A failure the client must see as an OpenAI-shaped error with a gateway code. The message is shown
 * to the client, so it must say what to do next and never carry a secret.
 */
public class GatewayException extends RuntimeException {

    private final ErrorCode code;
    private final String param;
    private final Duration retryAfter;

    public GatewayException(ErrorCode code, String message) {
        this(code, message, null, null, null);
    }

    public GatewayException(ErrorCode code, String message, String param, Throwable cause) {
        this(code, message, param, cause, null);
    }

    public GatewayException(ErrorCode code, String message, String param, Throwable cause, Duration retryAfter) {
        super(message, cause);
        this.code = code;
        this.param = param;
        this.retryAfter = retryAfter;
    }

    /** A refusal the client may retry after the given time (sent as {@code Retry-After}). */
    public static GatewayException retryable(ErrorCode code, String message, Duration retryAfter) {
        return new GatewayException(code, message, null, null, retryAfter);
    }

    public ErrorCode code() {
        return code;
    }

    /** The request field at fault, or {@code null}. */
    public String param() {
        return param;
    }

    /** How long the client should wait before retrying, or {@code null}. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
