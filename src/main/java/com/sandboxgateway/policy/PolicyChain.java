package com.sandboxgateway.policy;

import java.util.List;

import com.sandboxgateway.api.ErrorCode;

/**
 * The request steps in the order they run and the inspectors that see the answers. The order is
 * declared once, in {@code com.sandboxgateway.PipelineConfiguration}.
 */
public final class PolicyChain {

    private final List<RequestStep> steps;
    private final List<ResponseInspector> inspectors;
    private final ChainObserver observer;

    public PolicyChain(List<RequestStep> steps, List<ResponseInspector> inspectors) {
        this(steps, inspectors, ChainObserver.NONE);
    }

    public PolicyChain(List<RequestStep> steps, List<ResponseInspector> inspectors, ChainObserver observer) {
        this.steps = List.copyOf(steps);
        this.inspectors = List.copyOf(inspectors);
        this.observer = observer;
    }

    /** Runs the steps in order and returns the first refusal, or {@link Decision#PROCEED}. */
    public Decision apply(Exchange exchange) {
        for (RequestStep step : steps) {
            Decision decision = observer.step(step, exchange);
            if (decision instanceof Decision.Reject) {
                return decision;
            }
        }
        return Decision.PROCEED;
    }

    /** Tells every inspector the exchange is over; see {@link ResponseInspector#onFinish}. */
    public void finish(Exchange exchange, ErrorCode failure) {
        inspectors.forEach(inspector -> inspector.onFinish(exchange, failure));
        observer.finished(exchange, failure);
    }

    /** The inspectors, in order, that see every answer before the client does. */
    public List<ResponseInspector> inspectors() {
        return inspectors;
    }
}
