package com.sandboxgateway.budget;

import java.time.LocalDate;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.metrics.MeterFamily;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turn budgets: a turn is one {@code code_interpreter_call} or {@code shell_call} executed upstream. Before a
 * response is created, turns are reserved atomically from the session's and the user's daily budget (by
 * {@link Admission}, with the rate limits and the spend check), and the request's {@code max_tool_calls} is lowered
 * to what was reserved, so concurrent requests cannot overshoot. Once the answer shows the executed count (a plain
 * answer, a stream's final event, or a background response fetched or cancelled later, on any replica) the
 * reservation is settled to it: the charge row is staged with the answer's other writes, and the counters move once
 * it is durable. A
 * reservation whose request never reached the upstream is given back. A response that was still running when its
 * exchange ended (a background one, a stream that ended before it) keeps its reservation until the gateway fetches it
 * finished ({@code gateway.background-responses}), unless it asked {@code store: false}; one whose outcome is unknown
 * (a call that reached OpenAI and got no answer naming its response, or one OpenAI does not keep) stays charged whole.
 * Every answer that passed the earlier steps says {@code X-Gateway-Turns-Remaining}.
 */
public final class TurnBudget implements ResponseInspector {

    private static final Logger log = LoggerFactory.getLogger(TurnBudget.class);

    private final Budgets budgets;
    private final Counters counters;
    private final BudgetStore store;
    private final TeamPolicies teams;
    private final MeterFamily<io.micrometer.core.instrument.Counter> turnsUsed;

    TurnBudget(Budgets budgets, TeamPolicies teams, MeterRegistry meters) {
        this.budgets = budgets;
        this.counters = budgets.counters();
        this.store = budgets.store();
        this.teams = teams;
        this.turnsUsed = MeterFamily.counters(meters, BudgetMetrics.TURNS_USED, null, "team");
    }

    /**
     * The turns a new response asks for: none when it offers no code execution, else its {@code max_tool_calls}
     * within the session's budget.
     */
    static long wanted(ObjectNode request, EffectivePolicy.Limits limits) {
        JsonNode clientMax = request.get("max_tool_calls");
        return !OpenAiFormat.offersCodeExecution(request.path("tools")) ? 0
                : clientMax != null && clientMax.canConvertToLong() ? Math.min(clientMax.asLong(), limits.turnsPerSession())
                : limits.turnsPerSession();
    }

    /**
     * A new response's turns, once reserved ({@link Admission}): the session and what is left go on the answer, a
     * request whose budgets had nothing left is refused, and its {@code max_tool_calls} is lowered to what was reserved.
     */
    Decision reserved(Exchange exchange, ObjectNode request, LocalDate day, long wanted, Counters.Grant grant) {
        EffectivePolicy.Limits limits = teams.of(exchange.principal()).limits();
        String session = exchange.session();
        if (session != null) {
            exchange.addResponseHeader(GatewayHeaders.SESSION, session);
        }
        long left = session == null ? Math.min(grant.left(), limits.turnsPerSession() - grant.granted()) : grant.left();
        // Until the answer shows what ran, the reservation is still the session's: a stream's headers go out
        // before that, and must not read as if every reserved turn were spent.
        exchange.addResponseHeader(GatewayHeaders.TURNS_REMAINING, Long.toString(Math.max(0, left + grant.granted())));
        if (wanted > 0 && grant.granted() == 0) {
            return Decision.reject(ErrorCode.TURN_BUDGET_EXHAUSTED, "No turns left: a session may execute "
                    + limits.turnsPerSession() + " code blocks or shell calls and a user " + limits.turnsPerUserPerDay()
                    + " per day (UTC). Start a new session, or retry tomorrow.");
        }
        JsonNode clientMax = request.get("max_tool_calls");
        if (wanted > 0 && (clientMax == null || clientMax.asLong() > grant.granted())) {
            request.put("max_tool_calls", grant.granted());
            exchange.jsonEdited();
        }
        exchange.put(TurnReservation.SLOT, new TurnReservation(session, day, Math.toIntExact(grant.granted()), left));
        return Decision.PROCEED;
    }

    /**
     * What is left, on a request that reserves nothing: the session's turns (of the client's
     * {@code X-Gateway-Session}) and the user's of the day.
     */
    static void shown(Exchange exchange, Counters.Grant grant) {
        exchange.addResponseHeader(GatewayHeaders.TURNS_REMAINING, Long.toString(Math.max(0, grant.left())));
    }

    @Override
    public void inspect(Exchange exchange, Answer answer) {
        if (exchange.route().route() != Route.RESPONSES_CREATE) {
            if (!answer.isEvent()) {
                answer.response().ifPresent(response -> fetched(exchange, response));
            }
            return;
        }
        if (answer.isEvent()) {
            if (OpenAiFormat.RESPONSE_CREATED.equals(answer.type())) {
                answer.response().ifPresent(created -> identified(exchange, created.id(), false));
            }
            answer.finishedResponse().ifPresent(finished -> settle(exchange, finished));
            return;
        }
        answer.response().ifPresent(response -> {
            identified(exchange, response.id(), true);
            if (response.finished()) {
                settle(exchange, response);
            } else if (response.id() != null) {
                TurnReservation reservation = exchange.take(TurnReservation.SLOT);
                if (reservation != null) {
                    fetchedUntilFinished(exchange, reservation, response.id());
                }
            }
        });
    }

    @Override
    public void onFinish(Exchange exchange, ErrorCode failure) {
        TurnReservation reservation = exchange.take(TurnReservation.SLOT);
        if (reservation == null) {
            return;
        }
        if (!exchange.upstreamMayHaveActed()) {
            budgets.move(exchange.settlement(), reservationCounters(exchange, reservation), -reservation.reserved());
            return;
        }
        String responseId = exchange.responseId();
        if (responseId != null && storedUpstream(exchange)) {
            // A stream that ended before its response did (broken off, gone silent, its client gone): OpenAI keeps the
            // response, so it is fetched until it finishes, which audits what it ran and settles its turns.
            fetchedUntilFinished(exchange, reservation, responseId);
            return;
        }
        String chargeId = responseId != null ? responseId : "request:" + exchange.requestId();
        BudgetStore.TurnCharge charge = charge(exchange, reservation, chargeId, reservation.reserved());
        exchange.settlement().write(new StagedCharge("The turn reservation of request " + exchange.requestId(),
                store.turnRow(charge), fresh -> { }));
    }

    /** Whether OpenAI keeps the response the request creates, to be fetched by id: unless it asked {@code store: false}. */
    private static boolean storedUpstream(Exchange exchange) {
        return exchange.json() == null || exchange.json().path("store").asBoolean(true);
    }

    /** A new session takes the id of the response that started it ({@link Exchange#session()}); a JSON answer says so. */
    private static void identified(Exchange exchange, String responseId, boolean canAnswerHeader) {
        TurnReservation reservation = exchange.get(TurnReservation.SLOT);
        if (reservation != null && reservation.session() == null && responseId != null && canAnswerHeader) {
            exchange.addResponseHeader(GatewayHeaders.SESSION, responseId);
        }
    }

    /**
     * Settles this request's reservation to the executed count, with the answer's other writes; a charge recorded
     * already (by another request or replica) gives the whole reservation back. A background response is settled
     * when fetched.
     */
    private void settle(Exchange exchange, ResponseView response) {
        TurnReservation reservation = exchange.take(TurnReservation.SLOT);
        if (reservation == null) {
            return;
        }
        String responseId = response.id() != null ? response.id() : exchange.responseId();
        int executed = response.turns();
        List<Counter> reserved = reservationCounters(exchange, reservation);
        BudgetStore.TurnCharge charge = charge(exchange, reservation, responseId, executed);
        exchange.settlement().write(new StagedCharge("The turns of response " + responseId,
                store.turnRow(charge), fresh -> {
            int counted = fresh ? executed : 0;
            budgets.move(exchange.settlement(), reserved, counted - reservation.reserved());
            exchange.addResponseHeader(GatewayHeaders.TURNS_REMAINING,
                    Long.toString(Math.max(0, reservation.left() + reservation.reserved() - counted)));
            turnsUsed.with(exchange.principal().team()).increment(counted);
        }));
    }

    /**
     * A response still running after the exchange saw it last (a background one, a stream that ended first): its
     * reservation counts until the gateway fetches it finished ({@code gateway.background-responses}).
     */
    private void fetchedUntilFinished(Exchange exchange, TurnReservation reservation, String responseId) {
        BudgetStore.TurnCharge charge = charge(exchange, reservation, responseId, null);
        exchange.settlement().write(new StagedCharge("The turns of unfinished response " + responseId,
                store.turnRow(charge), fresh -> { }));
        exchange.settlement().write(new StagedCharge("The fetch of unfinished response " + responseId + " until it finishes",
                store.backgroundRow(charge), fresh -> { }));
    }

    /**
     * A response fetched or cancelled, in the session {@link Sessions} found it was created in: the answer says that
     * session and its turns left, and a background response that finished has its pending charge settled, once.
     */
    private void fetched(Exchange exchange, ResponseView response) {
        BudgetStore.TurnCharge charge = exchange.take(Sessions.STORED_CHARGE);
        if (charge == null) {
            return;
        }
        try {
            List<Counter> chargeCounters = counters(charge.user(), charge.session(), charge.day(),
                    teams.of(exchange.principal()).limits());
            if (charge.turns() == null && response.finished()) {
                int executed = response.turns();
                counters.add(chargeCounters, executed - charge.reserved());
                if (store.settle(charge.chargeId(), executed)) {
                    turnsUsed.with(charge.team()).increment(executed);
                } else {
                    counters.add(chargeCounters, charge.reserved() - executed);
                }
            }
            exchange.addResponseHeader(GatewayHeaders.SESSION, charge.session());
            exchange.addResponseHeader(GatewayHeaders.TURNS_REMAINING, Long.toString(counters.remaining(chargeCounters)));
        } catch (RuntimeException e) {
            log.warn("The turns of background response {} could not be settled now; retrieving it again settles them: {}",
                    charge.chargeId(), e.toString());
        }
    }

    /** The counters a reservation took from; a session that did not exist yet had no counter. */
    private List<Counter> reservationCounters(Exchange exchange, TurnReservation reservation) {
        EffectivePolicy.Limits limits = teams.of(exchange.principal()).limits();
        return counters(exchange.principal().user(), reservation.session(), reservation.day(), limits);
    }

    private List<Counter> counters(String user, String session, LocalDate day, EffectivePolicy.Limits limits) {
        return budgets.turnCounters(user, session, day, limits);
    }

    private static BudgetStore.TurnCharge charge(Exchange exchange, TurnReservation reservation, String chargeId, Integer turns) {
        String session = reservation.session() != null ? reservation.session() : chargeId;
        return new BudgetStore.TurnCharge(chargeId, exchange.principal().user(), exchange.principal().team(), session,
                reservation.day(), reservation.reserved(), turns);
    }
}
