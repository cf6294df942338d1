package com.sandboxgateway.budget;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateUnavailableException;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resolves a request's session before the request goes upstream, so every step and inspector reads it from the
 * exchange and none depends on another's order (the admission reserves its turns, the runaway check reads its
 * failures, the audit records its code in it).
 *
 * <p>A new response's is the client's {@code X-Gateway-Session}, else the conversation it belongs to, else the
 * session of the response it continues, else the container it names. A response that belongs to none starts a
 * session, which takes the id of the response it creates. Reading the session of a continued response from the
 * database can fail: then the request is answered as when the turn budgets cannot be checked
 * ({@code gateway.state.on-failure}).
 *
 * <p>A stored response (fetched or cancelled) belongs to the session it was created in, as its turn charge says,
 * whatever session the client names. The charge is left for {@link TurnBudget} ({@link #STORED_CHARGE}), which
 * settles a background response from it once the answer shows it finished: one read. When the charge cannot be read
 * the request goes on with the session the client named; fetching the response again settles it.
 */
public final class Sessions implements RequestStep {

    /** The turn charge of the stored response a request fetches or cancels, when it was created through the gateway. */
    static final Exchange.Slot<BudgetStore.TurnCharge> STORED_CHARGE = Exchange.Slot.named("stored response's turn charge");

    private static final Logger log = LoggerFactory.getLogger(Sessions.class);

    private final BudgetStore store;
    private final StateFailures failures;

    Sessions(BudgetStore store, StateFailures failures) {
        this.store = store;
        this.failures = failures;
    }

    @Override
    public Decision apply(Exchange exchange) {
        String stored = exchange.route().id("response_id");
        return stored != null ? ofStoredResponse(exchange, stored) : ofNewResponse(exchange);
    }

    private Decision ofStoredResponse(Exchange exchange, String responseId) {
        try {
            store.turnCharge(responseId, exchange.principal().user()).ifPresent(charge -> {
                exchange.sessionResolved(charge.session());
                exchange.put(STORED_CHARGE, charge);
            });
        } catch (DataAccessException e) {
            log.warn("The session of response {} could not be read; retrieving it again settles its turns: {}",
                    responseId, e.toString());
        }
        return Decision.PROCEED;
    }

    private Decision ofNewResponse(Exchange exchange) {
        ObjectNode request = exchange.json();
        if (request == null || exchange.session() != null) {
            return Decision.PROCEED;
        }
        String session;
        try {
            session = session(exchange, request);
        } catch (DataAccessException e) {
            return failures.decide("turn budgets",
                    new StateUnavailableException("the session of the previous response could not be read", e));
        }
        if (session != null) {
            exchange.sessionResolved(session);
        } else {
            exchange.startsSession();
        }
        return Decision.PROCEED;
    }

    private String session(Exchange exchange, ObjectNode request) {
        // A conversation is a session: every response in it draws on the same turns.
        JsonNode conversation = request.path("conversation");
        String conversationId = conversation.isObject() ? conversation.path("id").asString(null) : conversation.asString(null);
        if (conversationId != null) {
            return conversationId;
        }
        String previous = request.path("previous_response_id").asString(null);
        if (previous != null) {
            return store.sessionOf(previous, exchange.principal().user()).orElse(previous);
        }
        return OpenAiFormat.namedContainer(request.path("tools"));
    }
}
