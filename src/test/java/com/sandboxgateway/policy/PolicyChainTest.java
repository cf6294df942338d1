package com.sandboxgateway.policy;

import static com.sandboxgateway.policy.OnRoutes.always;
import static com.sandboxgateway.policy.OnRoutes.on;
import static com.sandboxgateway.support.Exchanges.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.support.Exchanges;

class PolicyChainTest {

    private final List<String> ran = new ArrayList<>();

    @Test
    void shouldRunOnlyTheStepsDeclaredForTheRouteAndStopAtTheFirstRefusal() {
        PolicyChain chain = new PolicyChain(List.of(
                always(step("rate limit", Decision.PROCEED)),
                on(step("uploads only", Decision.PROCEED), EnumSet.of(Route.FILES_UPLOAD)),
                always(step("budget", Decision.reject(ErrorCode.TURN_BUDGET_EXHAUSTED, "spent"))),
                always(step("never", Decision.PROCEED))), List.of(), List.of(), ChainObserver.NONE, Exchanges.WITHOUT_TRANSACTIONS);

        Decision decision = chain.apply(Exchanges.on(Route.RESPONSE_GET));

        assertThat(ran).containsExactly("rate limit", "budget");
        assertThat(decision).isInstanceOfSatisfying(Decision.Reject.class,
                reject -> assertThat(reject.code()).isEqualTo(ErrorCode.TURN_BUDGET_EXHAUSTED));
    }

    @Test
    void shouldNoteTheResponseBeforeAnyInspectorAndRunAfterAnswerActionsLast() {
        Exchange exchange = Exchanges.on(Route.RESPONSE_GET);
        PolicyChain chain = new PolicyChain(List.of(),
                List.of(on((seen, answer) -> ran.add("inspector saw " + seen.responseId()), EnumSet.of(Route.RESPONSE_GET)),
                        on((seen, answer) -> ran.add("not on this route"), EnumSet.of(Route.FILES_LIST))),
                List.of(always((seen, answer) -> {
                    ran.add("after answer");
                    return answer.replacedBy(tree("{\"id\":\"resp_1\",\"replaced\":true}"));
                })), ChainObserver.NONE, Exchanges.WITHOUT_TRANSACTIONS);

        Answer relayed = chain.answered(exchange, Answer.ofJson(tree("{\"id\":\"resp_1\",\"model\":\"gpt-5\"}"), true));

        assertThat(ran).containsExactly("inspector saw resp_1", "after answer");
        assertThat(exchange.model()).isEqualTo("gpt-5");
        assertThat(relayed.json().path("replaced").asBoolean()).isTrue();
    }

    @Test
    void shouldTellEveryInspectorTheExchangeIsOverWhateverItsRoute() {
        PolicyChain chain = new PolicyChain(List.of(), List.of(on(new ResponseInspector() {
            @Override
            public void inspect(Exchange exchange, Answer answer) {
            }

            @Override
            public void onFinish(Exchange exchange, ErrorCode failure) {
                ran.add("finished with " + failure);
            }
        }, EnumSet.of(Route.RESPONSES_CREATE))), List.of(), ChainObserver.NONE, Exchanges.WITHOUT_TRANSACTIONS);

        chain.finish(Exchanges.on(Route.FILES_LIST), ErrorCode.UPSTREAM_TIMEOUT);

        assertThat(ran).containsExactly("finished with UPSTREAM_TIMEOUT");
    }

    private RequestStep step(String name, Decision decision) {
        return exchange -> {
            ran.add(name);
            return decision;
        };
    }
}
