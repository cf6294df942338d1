package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.metrics.MeterFamily;
import com.sandboxgateway.state.StateUnavailableException;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;

/**
 * Daily spend caps per team. Paid requests (creating a response or a container) are refused with
 * {@code 429 spend_budget_exhausted} (by {@link Admission}, which checks the spend with the rate limits) once the
 * team's estimated spend of the day (UTC) reached its cap.
 * Spend is counted from what the answers report: a finished response's token usage (for streams, from
 * its final event; for background responses, when fetched) and each container session by memory tier,
 * each charged once by id whichever replica sees it, with the answer's other writes.
 */
public final class SpendBudget implements ResponseInspector {

    private static final String DEFAULT_TIER = "1g";

    private final Budgets budgets;
    private final Counters counters;
    private final BudgetStore store;
    private final TeamPolicies teams;
    private final Pricing pricing;
    private final Clock clock;
    private final MeterFamily<io.micrometer.core.instrument.Counter> tokens;
    private final MeterFamily<io.micrometer.core.instrument.Counter> spent;

    SpendBudget(Budgets budgets, TeamPolicies teams, Pricing pricing, Clock clock,
                MeterRegistry meters) {
        this.budgets = budgets;
        this.counters = budgets.counters();
        this.store = budgets.store();
        this.teams = teams;
        this.pricing = pricing;
        this.clock = clock;
        this.tokens = MeterFamily.counters(meters, BudgetMetrics.TOKENS, null, "team", "kind");
        this.spent = MeterFamily.counters(meters, BudgetMetrics.SPEND_USD, null, "team");
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
        charge(exchange, "response:" + id, pricing.tokensMicros(response.model(), input, output), () -> {
            tokens.with(team, "input").increment(input);
            tokens.with(team, "output").increment(output);
        });
        String tier = requestedTier(exchange, response);
        for (OutputItem call : response.output()) {
            if (call.kind().turn()) {
                chargeContainer(exchange, call.containerId(), tier);
            }
        }
    }

    private void chargeContainer(Exchange exchange, String containerId, String tier) {
        if (containerId != null) {
            charge(exchange, "container:" + containerId, pricing.containerMicros(tier), () -> { });
        }
    }

    /**
     * Charges once by id, with the answer's other writes; the counter moves once the charge is durable, and only
     * when it is new (a charge another request or replica recorded first is not counted again).
     *
     * @param counted told when the charge is new
     */
    private void charge(Exchange exchange, String chargeId, long micros, Runnable counted) {
        String team = exchange.principal().team();
        String user = exchange.principal().user();
        LocalDate day = LocalDate.now(clock);
        exchange.settlement().write(new StagedCharge("Spend " + chargeId + " of team " + team,
                store.spendRow(chargeId, team, user, day, micros), fresh -> {
                    if (fresh) {
                        budgets.move(exchange.settlement(), List.of(counter(team, day)), micros);
                        spent.with(team).increment(micros / 1_000_000.0);
                        counted.run();
                    }
                }));
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
