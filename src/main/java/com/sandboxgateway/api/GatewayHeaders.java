package com.sandboxgateway.api;

/** Names of the headers the gateway reads from clients or adds to its answers. */
public final class GatewayHeaders {

    /** Gateway request id on every answer; the upstream id is kept apart. */
    public static final String REQUEST_ID = "x-request-id";
    /** OpenAI's request id, relayed under this name so support can correlate both sides. */
    public static final String UPSTREAM_REQUEST_ID = "x-upstream-request-id";
    public static final String SESSION = "X-Gateway-Session";
    public static final String DATASET_PROFILE = "X-Gateway-Dataset-Profile";
    public static final String TURNS_REMAINING = "X-Gateway-Turns-Remaining";
    public static final String SANITIZED = "X-Gateway-Sanitized";
    /** Review flags raised by a request, e.g. {@code instruction_in_data=override; line=3; column=3}. */
    public static final String FLAGS = "X-Gateway-Flags";
    /** {@code true} or {@code false} on every gateway error: whether the SDKs should send the request again. */
    public static final String SHOULD_RETRY = "x-should-retry";
    public static final String RATE_LIMIT_LIMIT = "RateLimit-Limit";
    /** Quota, window and burst of the user's bucket, e.g. {@code 120;w=60;burst=60}. */
    public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";
    public static final String RATE_LIMIT_REMAINING = "RateLimit-Remaining";
    public static final String RATE_LIMIT_RESET = "RateLimit-Reset";

    private GatewayHeaders() {
    }
}
