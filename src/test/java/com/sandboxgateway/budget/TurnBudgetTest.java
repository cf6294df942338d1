package com.sandboxgateway.budget;

import static com.sandboxgateway.support.Exchanges.tree;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.support.Exchanges;

/**
 * A reservation settled to the turns the answer shows executed, through the chain (the admission reserves, the
 * inspector settles, the chain writes the charge to an H2 and moves the counters in memory), or given back.
 */
class TurnBudgetTest {

    private static final String CODE_RUNNING = """
            {"model":"gpt-4.1","input":"plot it","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""";

    private final BudgetFixture fixture = new BudgetFixture("turn-budget", "org.turns.max-per-session=3",
            "org.turns.max-per-user-per-day=10");
    private final PolicyChain chain = fixture.chainOf(fixture.turns);

    @Test
    void shouldSettleTheReservationToTheExecutedCount() {
        Exchange exchange = reserved("s-1");
        assertThat(fixture.turnsLeft("s-1")).as("all three reserved").isZero();

        answer(exchange, "resp_1", "completed");

        assertThat(fixture.turnsCharged("resp_1")).containsExactly(1);
        assertThat(fixture.turnsLeft("s-1")).as("the two unexecuted given back").isEqualTo(2);
        assertThat(exchange.responseHeaders()).containsEntry(GatewayHeaders.TURNS_REMAINING, "2");
        assertThat(fixture.meters.get(BudgetMetrics.TURNS_USED).tag("team", "analytics").counter().count()).isEqualTo(1);
    }

    @Test
    void shouldGiveTheWholeReservationBackForAResponseChargedAlready() {
        answer(reserved("s-1"), "resp_1", "completed");
        Exchange again = reserved("s-1");

        answer(again, "resp_1", "completed");

        assertThat(fixture.turnsCharged("resp_1")).containsExactly(1);
        assertThat(fixture.turnsLeft("s-1")).isEqualTo(2);
        assertThat(again.responseHeaders()).containsEntry(GatewayHeaders.TURNS_REMAINING, "2");
    }

    /** Refused before the call, or a call that never connected (its exchange holds no sign it may have reached OpenAI). */
    @ParameterizedTest
    @EnumSource(value = ErrorCode.class, names = {"INVALID_REQUEST", "UPSTREAM_ERROR"})
    void shouldGiveTheReservationBackWhenNothingReachedOpenAi(ErrorCode failure) {
        Exchange neverSent = reserved("s-1");

        chain.finish(neverSent, failure);

        assertThat(fixture.turnsLeft("s-1")).isEqualTo(3);
        assertThat(fixture.turnsCharged("request:gwreq_test")).isEmpty();
    }

    @Test
    void shouldChargeTheReservationOfACallThatReachedOpenAiAndGotNoAnswer() {
        Exchange unanswered = reserved("s-1");
        unanswered.upstreamUnanswered();

        chain.finish(unanswered, ErrorCode.UPSTREAM_TIMEOUT);

        assertThat(fixture.turnsLeft("s-1")).as("it may have run them all").isZero();
        assertThat(fixture.turnsCharged("request:gwreq_test")).containsExactly(3);
    }

    @Test
    void shouldKeepTheReservationOfABackgroundResponseUntilItIsFetchedFinished() {
        Exchange created = reserved("s-1");
        answer(created, "id_1", "in_progress");
        assertThat(fixture.turnsCharged("id_1")).as("pending").containsExactly((Integer) null);
        assertThat(fixture.turnsLeft("s-1")).isZero();

        Exchange fetch = Exchanges.on(Route.RESPONSE_GET);
        assertThat(chain.apply(fetch)).isEqualTo(Decision.PROCEED);
        answer(fetch, "id_1", "completed");

        assertThat(fixture.turnsCharged("id_1")).containsExactly(1);
        assertThat(fixture.turnsLeft("s-1")).isEqualTo(2);
        assertThat(fetch.responseHeaders()).containsEntry(GatewayHeaders.SESSION, "s-1")
                .containsEntry(GatewayHeaders.TURNS_REMAINING, "2");
    }

    /** A code-running request of alice's in the session, through the steps: it reserves the session's three turns. */
    private Exchange reserved(String session) {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, CODE_RUNNING);
        exchange.sessionResolved(session);
        assertThat(chain.apply(exchange)).isEqualTo(Decision.PROCEED);
        return exchange;
    }

    /** The upstream's answer: a response that ran one code block (so far, when it is still in progress). */
    private void answer(Exchange exchange, String responseId, String status) {
        exchange.upstreamAnswered(200, "req_upstream");
        chain.answered(exchange, Answer.ofJson(tree("""
                {"id":"%s","object":"response","status":"%s","model":"gpt-4.1","output":[
                 {"type":"code_interpreter_call","id":"ci_1","container_id":"cntr_1","status":"completed","code":"1+1"}],
                 "usage":{"input_tokens":100,"output_tokens":50}}""".formatted(responseId, status)), true));
        chain.finish(exchange, null);
    }
}
