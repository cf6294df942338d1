package com.sandboxgateway.api;

/**
 * A failure the client must see as an OpenAI-shaped error with a gateway code. The message is shown
 * to the client, so it must say what to do next and never carry a secret.
 */
public class GatewayException extends RuntimeException {

    private final ErrorCode code;
    private final String param;

    public GatewayException(ErrorCode code, String message) {
        this(code, message, null, null);
    }

    public GatewayException(ErrorCode code, String message, String param, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.param = param;
    }

    public ErrorCode code() {
        return code;
    }

    /** The request field at fault, or {@code null}. */
    public String param() {
        return param;
    }
}
