package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.policy.TeamPolicies;
import com.sandboxgateway.state.StateUnavailableException;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;

/**
 * Daily spend caps per team. Paid requests (creating a response or a container) are refused with
 * {@code 429 spend_budget_exhausted} (by {@link Admission}, which checks the spend with the rate limits) once the
 * team's estimated spend of the day (UTC) reached its cap.
 * Spend is counted from what the answers report: a finished response's token usage (for streams, from
 * its final event; for background responses, when fetched) and each container session by memory tier,
 * each charged once by id whichever replica sees it.
 */
public final class SpendBudget implements ResponseInspector {

    private static final Logger log = LoggerFactory.getLogger(SpendBudget.class);
    private static final String DEFAULT_TIER = "1g";

    private final Budgets budgets;
    private final Counters counters;
    private final BudgetStore store;
    private final TeamPolicies teams;
    private final Pricing pricing;
    private final Clock clock;
    private final MeterRegistry meters;

    SpendBudget(Budgets budgets, TeamPolicies teams, Pricing pricing, Clock clock,
                MeterRegistry meters) {
        this.budgets = budgets;
        this.counters = budgets.counters();
        this.store = budgets.store();
        this.teams = teams;
        this.pricing = pricing;
        this.clock = clock;
        this.meters = meters;
    }

    /**
     * The refusal of a paid request whose team reached its cap ({@link Admission} checks the spend), until midnight
     * UTC when the day's counter starts again.
     */
    Decision exhausted(String team) {
        Duration untilMidnight = Duration.between(clock.instant(),
                LocalDate.now(clock).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC));
        return Decision.reject(ErrorCode.SPEND_BUDGET_EXHAUSTED, "Team " + team + " has reached its daily spend cap of $"
                + teams.of(team).limits().maxUsdPerDay().toPlainString()
                + " (estimated). Requests that cost money are refused until 00:00 UTC; ask your platform team to raise the cap.")
                .retryAfter(untilMidnight);
    }

    @Override
    public void inspect(Exchange exchange, Answer answer) {
        if (exchange.route().route() == Route.CONTAINERS_CREATE) {
            JsonNode container = answer.json();
            chargeContainer(exchange, container.path("id").asString(null), container.path("memory_limit").asString(DEFAULT_TIER));
        } else {
            answer.finishedResponse().ifPresent(response -> chargeResponse(exchange, response));
        }
    }

    /** A finished response's tokens, and the container sessions its code and shell commands ran in. */
    private void chargeResponse(Exchange exchange, ResponseView response) {
        String id = response.id();
        if (id == null) {
            return;
        }
        String team = exchange.principal().team();
        long input = response.usage().inputTokens();
        long output = response.usage().outputTokens();
        if (charge(exchange, "response:" + id, pricing.tokensMicros(response.model(), input, output))) {
            meters.counter("gateway.tokens", "team", team, "kind", "input").increment(input);
            meters.counter("gateway.tokens", "team", team, "kind", "output").increment(output);
        }
        String tier = requestedTier(exchange, response);
        for (OutputItem call : response.output()) {
            if (call.kind().turn()) {
                chargeContainer(exchange, call.containerId(), tier);
            }
        }
    }

    private void chargeContainer(Exchange exchange, String containerId, String tier) {
        if (containerId != null) {
            charge(exchange, "container:" + containerId, pricing.containerMicros(tier));
        }
    }

    /**
     * Charges once by id. The counter moves first, so a counter seeded from the store in between does not
     * count the charge twice; a charge already recorded is taken back out. A charge that cannot be
     * written is logged, never held against the client's answer.
     */
    private boolean charge(Exchange exchange, String chargeId, long micros) {
        String team = exchange.principal().team();
        LocalDate day = LocalDate.now(clock);
        List<Counter> spend = List.of(counter(team, day));
        boolean counted = add(spend, micros, chargeId);
        try {
            if (!store.recordSpend(chargeId, team, exchange.principal().user(), day, micros)) {
                if (counted) {
                    add(spend, -micros, chargeId);
                }
                return false;
            }
        } catch (RuntimeException e) {
            log.warn("Spend {} of team {} could not be recorded: {}", chargeId, team, e.toString());
        }
        meters.counter("gateway.spend.usd", "team", team).increment(micros / 1_000_000.0);
        return true;
    }

    private boolean add(List<Counter> spend, long micros, String chargeId) {
        try {
            counters.add(spend, micros);
            return true;
        } catch (StateUnavailableException e) {
            log.warn("Spend {} could not be counted now ({}); it is counted when the counter is next seeded", chargeId,
                    e.getMessage());
            return false;
        }
    }

    /**
     * The memory tier of the auto container a response's request asked for: from the request when this exchange
     * created it, else from the tools the response echoes (a background response first seen finished on a later
     * fetch). Containers given by id were charged when created.
     */
    private static String requestedTier(Exchange exchange, ResponseView response) {
        JsonNode request = exchange.json();
        String tier = OpenAiFormat.autoContainerTier((request != null ? request : response.json()).path("tools"));
        return tier != null ? tier : DEFAULT_TIER;
    }

    private Counter counter(String team, LocalDate day) {
        return budgets.spendCounter(team, day);
    }
}
