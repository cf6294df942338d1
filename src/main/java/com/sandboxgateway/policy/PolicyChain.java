package com.sandboxgateway.policy;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.store.GroupCommit;

/**
 * The request steps in the order they run, the inspectors that see the answers and the after-answer
 * actions, each with the routes it applies to. The table is declared once, in
 * {@code com.sandboxgateway.PipelineConfiguration}.
 */
public final class PolicyChain {

    private static final Logger log = LoggerFactory.getLogger(PolicyChain.class);

    private final List<OnRoutes<RequestStep>> steps;
    private final List<OnRoutes<ResponseInspector>> inspectors;
    private final List<OnRoutes<AfterAnswer>> afterAnswers;
    private final ChainObserver observer;
    private final GroupCommit commits;

    /** @param commits where the writes the inspectors stage in an exchange's {@link Settlement} are committed */
    public PolicyChain(List<OnRoutes<RequestStep>> steps, List<OnRoutes<ResponseInspector>> inspectors,
                       List<OnRoutes<AfterAnswer>> afterAnswers, ChainObserver observer, GroupCommit commits) {
        this.steps = List.copyOf(steps);
        this.inspectors = List.copyOf(inspectors);
        this.afterAnswers = List.copyOf(afterAnswers);
        this.observer = observer;
        this.commits = commits;
    }

    /** Runs the steps of the exchange's route in order and returns the first refusal, or {@link Decision#PROCEED}. */
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        for (OnRoutes<RequestStep> step : steps) {
            if (step.appliesTo(route) && observer.step(step.part(), exchange) instanceof Decision.Reject reject) {
                return reject;
            }
        }
        return Decision.PROCEED;
    }

    /**
     * Shows one answer (a successful JSON body or a stream event) to the route's inspectors, settles what must be
     * durable before the client sees it, then runs the route's after-answer actions. The response it names is noted
     * on the exchange first, so no inspector depends on another for it.
     *
     * <p>A JSON answer is settled whole here (one transaction, one round trip for the counters), so its audit record,
     * owner rows and charges are durable before its body is written: the client holds the whole body, ids and all,
     * as soon as it is. A stream event is settled here only when it staged a write that must precede it (an audit
     * record: then the bookkeeping staged since the last settling rides in the same transaction); the rest is settled
     * by {@link #relayed} (see there), so a stream's first event does not wait for a commit. The consequence: for about
     * a commit's time after a stream shows a response id, its owner row may not be visible yet, and a request naming
     * it then gets the {@code 404} of an id nobody owns; an item, container or container file id a stream shows is
     * owned from its next audit record or its end on.
     *
     * @return the answer to relay
     */
    public Answer answered(Exchange exchange, Answer answer) {
        answer.response().ifPresent(response -> exchange.responseSeen(response.id(), response.model()));
        Route route = exchange.route().route();
        for (OnRoutes<ResponseInspector> inspector : inspectors) {
            if (inspector.appliesTo(route)) {
                inspector.part().inspect(exchange, answer);
            }
        }
        Settlement settlement = exchange.settlement();
        if (!answer.isEvent() || settlement.holdsRelay()) {
            settlement.settle(commits);
        }
        Answer relayed = answer;
        for (OnRoutes<AfterAnswer> action : afterAnswers) {
            if (action.appliesTo(route)) {
                relayed = action.part().follow(exchange, relayed);
            }
        }
        return relayed;
    }

    /**
     * Stream events were flushed to the client (one, or those the upstream sent together): where they staged
     * bookkeeping that is due once they are relayed (a response's owner row, the final event's turn and spend charges;
     * see {@link Settlement.Timing}), settles everything {@link #answered} left staged, in one transaction, while the
     * client reads them and before the relay waits for the next; so the stream (and the handler) ends only once
     * everything its events staged is settled. Bookkeeping that can wait (the owner rows of items, containers and files) waits for
     * the next settling: a code-running stream commits when it shows the response, before each executed call is
     * relayed, and as it ends, however many events the upstream sends apart. What is still staged when the exchange
     * ends (a client gone away, an upstream broken off) is settled by {@link #finish}.
     *
     * @throws com.sandboxgateway.api.GatewayException from a write's fallback: the stream ends with that error
     */
    public void relayed(Exchange exchange) {
        Settlement settlement = exchange.settlement();
        if (settlement.dueAfterRelay()) {
            settlement.settle(commits);
        }
    }

    /**
     * Tells every inspector the exchange is over, whatever its route (see {@link ResponseInspector#onFinish}), and
     * settles what they staged then (a reservation nobody settled).
     */
    public void finish(Exchange exchange, ErrorCode failure) {
        inspectors.forEach(inspector -> inspector.part().onFinish(exchange, failure));
        try {
            exchange.settlement().settle(commits);
        } catch (RuntimeException e) {
            log.warn("What request {} left to settle at its end could not be written: {}", exchange.requestId(), e.toString());
        }
        observer.finished(exchange, failure);
    }
}
