package com.sandboxgateway.policy;

import com.sandboxgateway.api.ErrorCode;

/**
 * Watches the chain run, around each step and at the end of the exchange (tracing). Observers see the
 * steps from outside, so no step knows it is watched; {@link #NONE} watches nothing.
 */
public interface ChainObserver {

    ChainObserver NONE = new ChainObserver() {
    };

    /** Runs the step for the exchange and returns its decision; an observer may record what it did. */
    default Decision step(RequestStep step, Exchange exchange) {
        return step.apply(exchange);
    }

    /**
     * The exchange is over (after the inspectors' {@link ResponseInspector#onFinish}). Must not throw.
     *
     * @param failure the gateway error the client got, or {@code null}
     */
    default void finished(Exchange exchange, ErrorCode failure) {
    }
}
