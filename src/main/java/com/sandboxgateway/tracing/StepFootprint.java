package com.sandboxgateway.tracing;

import java.util.Map;

import com.sandboxgateway.budget.TurnReservation;
import com.sandboxgateway.policy.Exchange;

/**
 * What a step can leave on an exchange: a rewritten body, a resolved session, reserved turns, answer headers
 * (rate-limit figures, flags), an added query parameter. A step whose footprint differs before and after did
 * work; one that refused did too; one that only looked and let the request pass leaves no span.
 */
record StepFootprint(boolean bodyReplaced, String session, TurnReservation turns, Map<String, String> headers, String query) {

    static StepFootprint of(Exchange exchange) {
        return new StepFootprint(exchange.bodyReplaced(), exchange.session(), TurnReservation.of(exchange),
                Map.copyOf(exchange.responseHeaders()), exchange.rawQuery());
    }
}
