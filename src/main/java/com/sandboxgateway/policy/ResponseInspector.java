package com.sandboxgateway.policy;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.openai.Answer;

/**
 * Looks at what the upstream answered on the routes the chain table gives it, before the client gets it
 * (to record ownership, audit executed code, settle budgets). It reads the answer the relay parsed once
 * and never changes it; an upstream call because of an answer is an {@link AfterAnswer}. What it writes to the
 * database and the counters it moves it stages in {@link Exchange#settlement()}, which the chain makes once every
 * inspector has seen the answer (for a stream event that staged only bookkeeping, once the event is relayed: see
 * {@link PolicyChain#answered}). An inspector (or a staged write's fallback) that throws
 * {@link com.sandboxgateway.api.GatewayException} keeps the answer from the client: the client gets that error
 * instead (after the event, when it was the fallback of bookkeeping settled after the relay).
 */
@FunctionalInterface
public interface ResponseInspector {

    /** A successful (2xx) JSON answer, or one event of a streamed answer, before it is relayed. */
    void inspect(Exchange exchange, Answer answer);

    /**
     * The exchange is over, however it ended: refused, failed, cut off or relayed in full. For what must
     * be closed whatever happened (a reservation nobody settled). Must not throw.
     *
     * @param failure the gateway error the client got, or {@code null} when it got the upstream's answer
     */
    default void onFinish(Exchange exchange, ErrorCode failure) {
    }
}
