package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.support.Exchanges;

/** The step never refuses: it only asks the upstream for what the audit keeps. */
class CodeOutputsRequestedTest {

    private final CodeOutputsRequested step = new CodeOutputsRequested();

    @Test
    void shouldAddTheCodeOutputsToWhatARequestWithCodeInterpreterIncludes() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":"plot","include":["reasoning.encrypted_content"],
                 "tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""");

        assertThat(step.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isTrue();
        assertThat(exchange.json().path("include").valueStream().map(value -> value.asString()))
                .containsExactly("reasoning.encrypted_content", "code_interpreter_call.outputs");
    }

    @Test
    void shouldLeaveARequestWithoutCodeInterpreterOrAlreadyAskingAsSent() {
        Exchange plain = Exchanges.json(Route.RESPONSES_CREATE, "{\"model\":\"gpt-5\",\"input\":\"hi\"}");
        Exchange asking = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":"plot","include":["code_interpreter_call.outputs"],"tools":[{"type":"code_interpreter"}]}""");

        assertThat(step.apply(plain)).isEqualTo(Decision.PROCEED);
        assertThat(step.apply(asking)).isEqualTo(Decision.PROCEED);
        assertThat(plain.bodyReplaced()).isFalse();
        assertThat(asking.bodyReplaced()).isFalse();
    }

    @Test
    void shouldAskForTheOutputsWhenAResponseIsFetched() {
        Exchange exchange = Exchanges.on(Route.RESPONSE_GET);

        assertThat(step.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.rawQuery()).isEqualTo("include%5B%5D=code_interpreter_call.outputs");
    }
}
