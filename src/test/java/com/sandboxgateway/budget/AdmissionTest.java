package com.sandboxgateway.budget;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.support.Exchanges;

/**
 * The admission without Spring: rate limits, the spend check and the turn reservation taken from counters in memory,
 * seeded from an in-memory H2, in that order, a refusal taking nothing after it.
 */
class AdmissionTest {

    private static final String CODE_RUNNING = """
            {"model":"gpt-4.1","input":"plot it","max_tool_calls":10,"tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""";

    private final BudgetFixture fixture = new BudgetFixture("admission", "org.turns.max-per-session=3",
            "org.turns.max-per-user-per-day=5", "org.rate-limit.burst=2", "org.spend.max-usd-per-team-per-day=1");
    private final Admission admission = fixture.admission;

    @Test
    void shouldReserveTheSessionsTurnsAndLowerMaxToolCallsToThem() {
        Exchange exchange = inSession("s-1");

        Decision decision = admission.apply(exchange);

        assertThat(decision).isEqualTo(Decision.PROCEED);
        assertThat(exchange.json().path("max_tool_calls").asInt()).as("10 asked, 3 per session").isEqualTo(3);
        assertThat(TurnReservation.of(exchange)).isEqualTo(new TurnReservation("s-1", fixture.today, 3, 0));
        assertThat(exchange.responseHeaders()).containsEntry(GatewayHeaders.SESSION, "s-1")
                .containsEntry(GatewayHeaders.TURNS_REMAINING, "3");
    }

    @Test
    void shouldRefuseASessionWithNoTurnsLeft() {
        admission.apply(inSession("s-1"));

        Exchange exhausted = inSession("s-1");

        assertRefused(admission.apply(exhausted), ErrorCode.TURN_BUDGET_EXHAUSTED, null, "a session may execute 3");
        assertThat(TurnReservation.of(exhausted)).isNull();
    }

    @Test
    void shouldRefuseASpentTeamAndReserveNoTurns() {
        fixture.budgets.store().spendRow("response:resp_earlier", "analytics", "alice", fixture.today, 1_000_000).insert();
        Exchange exchange = inSession("s-2");

        Decision decision = admission.apply(exchange);

        assertThat(assertRefused(decision, ErrorCode.SPEND_BUDGET_EXHAUSTED, null, "daily spend cap of $1").retryAfter())
                .as("until midnight UTC").isEqualTo(Duration.ofHours(15));
        assertThat(TurnReservation.of(exchange)).isNull();
        assertThat(fixture.turnsLeft("s-2")).isEqualTo(3);
    }

    @Test
    void shouldRefuseOnceTheBurstIsTakenBeforeCheckingTheBudgets() {
        admission.apply(Exchanges.on(Route.FILES_LIST));
        admission.apply(Exchanges.on(Route.FILES_LIST));

        Exchange limited = inSession("s-3");

        assertRefused(admission.apply(limited), ErrorCode.RATE_LIMIT_EXCEEDED, null, "");
        assertThat(limited.json().path("max_tool_calls").asInt()).as("untouched").isEqualTo(10);
        assertThat(TurnReservation.of(limited)).isNull();
    }

    private static Exchange inSession(String session) {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, CODE_RUNNING);
        exchange.sessionResolved(session);
        return exchange;
    }
}
