package com.sandboxgateway.budget;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static com.sandboxgateway.support.Exchanges.tree;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.support.Exchanges;

/**
 * A finished response's tokens and container sessions charged once by id, through the chain (charges in an H2, the
 * team's counter in memory); once the spend reached the cap, the admission refuses the next paid request.
 */
class SpendBudgetTest {

    private static final String REQUEST = """
            {"model":"gpt-4.1","input":"plot it","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""";
    /** 1,000 input and 500 output tokens at $10 per million: $0.015. */
    private static final long TOKENS_MICROS = 15_000;
    private static final long CONTAINER_MICROS = 30_000;

    private final BudgetFixture fixture = new BudgetFixture("spend-budget", "org.spend.max-usd-per-team-per-day=0.05");
    private final PolicyChain chain = fixture.chainOf(fixture.spend);

    @Test
    void shouldChargeAFinishedResponsesTokensAndContainerOnce() {
        answer(admitted(), "completed");
        answer(admitted(), "completed");

        assertThat(fixture.spendCharged("response:resp_1")).containsExactly(TOKENS_MICROS);
        assertThat(fixture.spendCharged("container:cntr_1")).containsExactly(CONTAINER_MICROS);
        assertThat(fixture.spendLeft()).isEqualTo(50_000 - TOKENS_MICROS - CONTAINER_MICROS);
        assertThat(fixture.meters.get(BudgetMetrics.TOKENS).tags("team", "analytics", "kind", "output").counter().count())
                .as("counted once").isEqualTo(500);
    }

    @Test
    void shouldChargeNothingUntilTheResponseFinished() {
        answer(admitted(), "in_progress");

        assertThat(fixture.spendCharged("response:resp_1")).isEmpty();
        assertThat(fixture.spendLeft()).isEqualTo(50_000);
    }

    @Test
    void shouldHaveTheAdmissionRefuseOnceTheChargesReachedTheCap() {
        answer(admitted(), "completed");
        answer(admitted(), "completed", "resp_2", "cntr_2");

        Exchange refused = Exchanges.json(Route.RESPONSES_CREATE, REQUEST);

        assertRefused(chain.apply(refused), ErrorCode.SPEND_BUDGET_EXHAUSTED, null, "daily spend cap of $0.05");
    }

    private Exchange admitted() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, REQUEST);
        assertThat(chain.apply(exchange)).isEqualTo(Decision.PROCEED);
        return exchange;
    }

    private void answer(Exchange exchange, String status) {
        answer(exchange, status, "resp_1", "cntr_1");
    }

    /** The upstream's answer: a response that ran one code block in a container. */
    private void answer(Exchange exchange, String status, String responseId, String containerId) {
        exchange.upstreamAnswered(200, "req_upstream");
        chain.answered(exchange, Answer.ofJson(tree("""
                {"id":"%s","object":"response","status":"%s","model":"gpt-4.1","output":[
                 {"type":"code_interpreter_call","id":"ci_1","container_id":"%s","status":"completed","code":"1+1"}],
                 "usage":{"input_tokens":1000,"output_tokens":500}}""".formatted(responseId, status, containerId)), true));
        chain.finish(exchange, null);
    }
}
