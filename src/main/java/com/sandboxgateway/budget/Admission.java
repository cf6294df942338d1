package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.ratelimit.RateLimiter;
import com.sandboxgateway.ratelimit.RateLimits;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateUnavailableException;

import tools.jackson.databind.node.ObjectNode;

/**
 * What a request takes from the shared state before it goes on, in one call to it (one Redis round trip): a token
 * from each of its rate-limit buckets (the key's when it has a limit of its own, the user's, the team's), then, on
 * the routes that cost money, the check of the team's spend of the day, then, on the routes that create a response,
 * the reservation of its turns (elsewhere, what is left of them, for {@code X-Gateway-Turns-Remaining}). Each refuses
 * in that order, and a refusal takes nothing after it: a rate-limited request costs no token of an earlier bucket,
 * a spent team reserves no turns. It runs early, so a later step that refuses the request finds its turns reserved:
 * {@link TurnBudget#onFinish} gives back what never went upstream.
 *
 * <p>When the state cannot be reached, the request is answered by {@code gateway.state.on-failure}, naming the
 * check that failed: the rate limits (Redis), or the spend caps or turn budgets (a missing counter that the database
 * could not seed). A request that only shows its turns left is not refused for them: it goes on without that header.
 */
public final class Admission implements RequestStep {

    private static final Logger log = LoggerFactory.getLogger(Admission.class);

    private final Budgets budgets;
    private final Counters counters;
    private final TeamPolicies teams;
    private final RateLimits rateLimits;
    private final SpendBudget spend;
    private final TurnBudget turns;
    private final StateFailures failures;
    private final Clock clock;
    private final Set<Route> costMoney;
    private final Set<Route> reserveTurns;

    /**
     * @param costMoney the routes whose requests are refused once the team's spend reached its cap
     * @param reserveTurns the routes whose requests reserve turns (with a JSON body)
     */
    public Admission(Budgets budgets, TeamPolicies teams, RateLimits rateLimits, SpendBudget spend, TurnBudget turns,
                     StateFailures failures, Clock clock, Set<Route> costMoney, Set<Route> reserveTurns) {
        this.budgets = budgets;
        this.counters = budgets.counters();
        this.teams = teams;
        this.rateLimits = rateLimits;
        this.spend = spend;
        this.turns = turns;
        this.failures = failures;
        this.clock = clock;
        this.costMoney = Set.copyOf(costMoney);
        this.reserveTurns = Set.copyOf(reserveTurns);
    }

    @Override
    public Decision apply(Exchange exchange) {
        Principal principal = exchange.principal();
        LocalDate day = LocalDate.now(clock);
        EffectivePolicy.Limits limits = teams.of(principal).limits();
        Route route = exchange.route().route();
        ObjectNode request = reserveTurns.contains(route) ? exchange.json() : null;
        long wanted = request == null ? 0 : TurnBudget.wanted(request, limits);
        Counter spent = costMoney.contains(route) ? budgets.spendCounter(principal.team(), day) : null;
        Counters.Ask ask = new Counters.Ask(RateLimiter.bucketsOf(principal, teams.of(principal.team()).limits()), spent,
                budgets.turnCounters(principal.user(), exchange.session(), day, limits), wanted);
        Counters.Admitted admitted;
        try {
            admitted = admit(ask, request != null);
        } catch (Counters.SeedFailed e) {
            return failures.decide(e.counter() == spent ? "spend caps" : "turn budgets", e);
        } catch (StateUnavailableException e) {
            return failures.decide("rate limits", e);
        }
        Decision limited = rateLimits.answer(exchange, admitted.take());
        if (limited != Decision.PROCEED) {
            return limited;
        }
        if (admitted.spendExhausted()) {
            return spend.exhausted(principal.team());
        }
        if (request != null) {
            return turns.reserved(exchange, request, day, wanted, admitted.turns());
        }
        if (admitted.turns() != null) {
            TurnBudget.shown(exchange, admitted.turns());
        }
        return Decision.PROCEED;
    }

    /** Admits; a request that only shows its turns is admitted without them when their counters cannot be seeded. */
    private Counters.Admitted admit(Counters.Ask ask, boolean reservesTurns) {
        try {
            return counters.admit(ask);
        } catch (Counters.SeedFailed e) {
            if (reservesTurns || e.counter() == ask.spend()) {
                throw e;
            }
            log.debug("Turns left unknown: {}", e.getMessage());
            return counters.admit(new Counters.Ask(ask.buckets(), ask.spend(), List.of(), 0));
        }
    }
}
