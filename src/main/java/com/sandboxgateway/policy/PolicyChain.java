package com.sandboxgateway.policy;

import java.util.List;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;

/**
 * The request steps in the order they run and the inspectors that see the answers, each with the routes
 * it applies to. The table is declared once, in {@code com.sandboxgateway.PipelineConfiguration}.
 */
public final class PolicyChain {

    private final List<Step> steps;
    private final List<Inspection> inspections;
    private final ChainObserver observer;

    public PolicyChain(List<Step> steps, List<Inspection> inspections) {
        this(steps, inspections, ChainObserver.NONE);
    }

    public PolicyChain(List<Step> steps, List<Inspection> inspections, ChainObserver observer) {
        this.steps = List.copyOf(steps);
        this.inspections = List.copyOf(inspections);
        this.observer = observer;
    }

    /** Runs the steps of the exchange's route in order and returns the first refusal, or {@link Decision#PROCEED}. */
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        for (Step step : steps) {
            if (step.appliesTo(route) && observer.step(step.step(), exchange) instanceof Decision.Reject reject) {
                return reject;
            }
        }
        return Decision.PROCEED;
    }

    /** Tells every inspector the exchange is over, whatever its route; see {@link ResponseInspector#onFinish}. */
    public void finish(Exchange exchange, ErrorCode failure) {
        inspections.forEach(inspection -> inspection.inspector().onFinish(exchange, failure));
        observer.finished(exchange, failure);
    }

    /** The inspectors, in order, that see the answers of this route before the client does. */
    public List<ResponseInspector> inspectors(Route route) {
        return inspections.stream().filter(inspection -> inspection.appliesTo(route)).map(Inspection::inspector).toList();
    }
}
