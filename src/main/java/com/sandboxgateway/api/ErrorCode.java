package com.sandboxgateway.api;

/**
 * Every error the gateway itself answers on {@code /v1/**}, with its HTTP status and the OpenAI error
 * {@code type}. The {@link #code()} strings are part of the public contract: SDK users match on them.
 */
public enum ErrorCode {
    INVALID_API_KEY(401, "invalid_request_error"),
    ROUTE_NOT_ALLOWED(404, "invalid_request_error"),
    NOT_FOUND(404, "invalid_request_error"),
    INVALID_REQUEST(400, "invalid_request_error"),
    SECRET_DETECTED(400, "invalid_request_error"),
    PII_DETECTED(400, "invalid_request_error"),
    CONTAINER_FILE_NOT_INPUT_FILE(400, "invalid_request_error"),
    /** An input item, content part or tool type the gateway does not govern, with {@code unknown-input: refuse}. */
    UNSUPPORTED_INPUT(400, "invalid_request_error"),
    /** {@code input_file.file_url} whose host is not in {@code files.file-urls.fetch-from}. */
    FILE_URL_NOT_ALLOWED(400, "invalid_request_error"),
    DOMAIN_NOT_ALLOWED(403, "permission_error"),
    MEMORY_LIMIT_NOT_ALLOWED(403, "permission_error"),
    TOOL_NOT_ALLOWED(403, "permission_error"),
    FILE_TOO_LARGE(413, "invalid_request_error"),
    UNSUPPORTED_FILE_TYPE(415, "invalid_request_error"),
    MISSING_REQUIRED_COLUMNS(422, "invalid_request_error"),
    INVALID_FILE(422, "invalid_request_error"),
    /** Uploaded data holds text that reads like an instruction to the model and the injection policy blocks it. */
    INSTRUCTION_IN_DATA(422, "invalid_request_error"),
    RATE_LIMIT_EXCEEDED(429, "rate_limit_error"),
    TURN_BUDGET_EXHAUSTED(429, "rate_limit_error"),
    SPEND_BUDGET_EXHAUSTED(429, "insufficient_quota"),
    UPSTREAM_ERROR(502, "server_error"),
    UPSTREAM_UNAVAILABLE(503, "server_error"),
    AUDIT_UNAVAILABLE(503, "server_error"),
    /**
     * Rate limits or budgets cannot be read (Redis down) and {@code gateway.state.on-failure} is {@code deny}; or the
     * database cannot be reached for what a request must read or write there without a fallback (owner rows).
     */
    STATE_UNAVAILABLE(503, "server_error"),
    /** This replica is at {@code gateway.overload.max-in-flight} and the request found no place in time. */
    OVERLOADED(503, "server_error"),
    UPSTREAM_TIMEOUT(504, "server_error"),
    INTERNAL_ERROR(500, "server_error");

    private final int status;
    private final String type;

    ErrorCode(int status, String type) {
        this.status = status;
        this.type = type;
    }

    /** The wire name, e.g. {@code route_not_allowed}. */
    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public int status() {
        return status;
    }

    /** OpenAI's {@code error.type}. */
    public String type() {
        return type;
    }

    /**
     * Whether the same request, sent again a little later, may succeed: answered as {@code x-should-retry},
     * which the official SDKs obey before their own rule (retry every 429 and 5xx). A spent budget stays
     * spent for hours, so retrying it only burns the client's attempts.
     */
    public boolean worthRetrying() {
        return switch (this) {
            case RATE_LIMIT_EXCEEDED, UPSTREAM_ERROR, UPSTREAM_UNAVAILABLE, AUDIT_UNAVAILABLE, STATE_UNAVAILABLE,
                 OVERLOADED, UPSTREAM_TIMEOUT, INTERNAL_ERROR -> true;
            default -> false;
        };
    }
}
