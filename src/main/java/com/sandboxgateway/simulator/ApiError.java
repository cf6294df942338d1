package com.sandboxgateway.simulator;

/** An error the simulator answers in OpenAI's shape ({@code {"error":{"message","type","param","code"}}}). */
final class ApiError extends RuntimeException {

    private final int status;
    private final String type;
    private final String param;
    private final String code;

    ApiError(int status, String type, String message, String param, String code) {
        super(message);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    /** OpenAI's answer for an id it does not have (or no longer has). */
    static ApiError notFound(String what, String id) {
        return new ApiError(404, "invalid_request_error", "No such " + what + ": " + id, "id", null);
    }

    static ApiError invalid(String message, String param) {
        return new ApiError(400, "invalid_request_error", message, param, null);
    }

    int status() {
        return status;
    }

    String type() {
        return type;
    }

    String param() {
        return param;
    }

    String code() {
        return code;
    }
}
