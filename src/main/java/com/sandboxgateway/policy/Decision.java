package com.sandboxgateway.policy;

import com.sandboxgateway.api.ErrorCode;

/** What a {@link RequestStep} decided: let the request go on, or refuse it with a gateway error. */
public sealed interface Decision {

    Decision PROCEED = new Proceed();

    static Decision reject(ErrorCode code, String message) {
        return new Reject(code, message, null);
    }

    static Decision reject(ErrorCode code, String message, String param) {
        return new Reject(code, message, param);
    }

    /** The request goes on to the next step. */
    record Proceed() implements Decision {
    }

    /**
     * The request is refused. The message is shown to the client: it says what to change and never
     * carries a secret.
     *
     * @param param the request field at fault, or {@code null}
     */
    record Reject(ErrorCode code, String message, String param) implements Decision {
    }
}
