package com.sandboxgateway.budget;

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
 * Resolves the session of a new response, before any step needs it (the admission reserves its turns, the runaway
 * check reads its failures, the audit records its code in it): the client's {@code X-Gateway-Session}, else the
 * conversation it belongs to, else the session of the response it continues, else the container it names. A
 * response that belongs to none starts a session, which takes the id of the response it creates. Reading the
 * session of a continued response from the database can fail: then the request is answered as when the turn
 * budgets cannot be checked ({@code gateway.state.on-failure}).
 */
public final class Sessions implements RequestStep {

    private final BudgetStore store;
    private final StateFailures failures;

    Sessions(BudgetStore store, StateFailures failures) {
        this.store = store;
        this.failures = failures;
    }

    @Override
    public Decision apply(Exchange exchange) {
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
