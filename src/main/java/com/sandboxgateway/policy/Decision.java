package com.sandboxgateway.policy;

import java.time.Duration;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * What a {@link RequestStep} decided: let the request go on, or refuse it with a gateway error. A refusal
 * is always this value, never an exception; {@code ProxyController} turns it into the client's answer in
 * one place.
 */
public sealed interface Decision {

    Decision PROCEED = new Proceed();

    static Reject reject(ErrorCode code, String message) {
        return new Reject(code, message, null, null);
    }

    static Reject reject(ErrorCode code, String message, String param) {
        return new Reject(code, message, param, null);
    }

    /** The request goes on to the next step. */
    record Proceed() implements Decision {
    }

    /**
     * The request is refused. The message is shown to the client: it says what to change and never
     * carries a secret.
     *
     * @param param the request field at fault, or {@code null}
     * @param retryAfter how long the client should wait before retrying (sent as {@code Retry-After}), or {@code null};
     *        other headers a refusal answers with (the rate limit's, the sanitization's) are the exchange's response headers
     */
    record Reject(ErrorCode code, String message, String param, Duration retryAfter) implements Decision {

        /** The refusal a fault (an upstream failure, a malformed body) comes to. */
        public static Reject of(GatewayException fault) {
            return new Reject(fault.code(), fault.getMessage(), fault.param(), fault.retryAfter());
        }

        /**
         * This refusal as an exception, for code that streams (a file rewriter midway through a file, a
         * multipart form field as it passes) and cannot return it; the step around that code catches it
         * and returns {@link #of} it, so the chain itself only ever sees a {@link Decision}.
         */
        public GatewayException asException() {
            return new GatewayException(code, message, param, null, retryAfter);
        }

        /** This refusal, naming {@code field} as the one at fault. */
        public Reject at(String field) {
            return new Reject(code, message, field, retryAfter);
        }

        /** This refusal with {@code where} in front of its message ({@code input[0].content[1]: ...}). */
        public Reject locatedAt(String where) {
            return new Reject(code, where + ": " + message, param, retryAfter);
        }

        /** This refusal, telling the client to retry after {@code wait}. */
        public Reject retryAfter(Duration wait) {
            return new Reject(code, message, param, wait);
        }
    }
}
