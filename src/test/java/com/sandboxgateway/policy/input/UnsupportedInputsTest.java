package com.sandboxgateway.policy.input;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.support.Exchanges;

class UnsupportedInputsTest {

    private static final String MCP_CALL = """
            {"model":"gpt-5","input":[{"role":"user","content":"hi"},{"type":"mcp_call","id":"mcp_1","name":"x","server_label":"s",
             "arguments":"{}"}]}""";

    private final List<Object> events = new ArrayList<>();

    @Test
    void shouldRefuseAnInputItemTheGatewayDoesNotGovernNamingItsPlace() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, MCP_CALL);

        assertRefused(step(PolicyProperties.UnknownInput.REFUSE).apply(exchange), ErrorCode.UNSUPPORTED_INPUT, "input[1]", "'mcp_call'");
        assertThat(events).isEmpty();
    }

    @Test
    void shouldForwardItUnchangedAndRecordItWhenAllowed() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, MCP_CALL);

        assertThat(step(PolicyProperties.UnknownInput.ALLOW).apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isFalse();
        assertThat(events).singleElement().isInstanceOfSatisfying(UngovernedInputForwarded.class,
                forwarded -> assertThat(forwarded.places()).extracting(InputPlaces.Unsupported::type).containsExactly("mcp_call"));
    }

    @Test
    void shouldLetGovernedInputThrough() {
        assertThat(step(PolicyProperties.UnknownInput.REFUSE).apply(Exchanges.json(Route.RESPONSES_CREATE,
                "{\"model\":\"gpt-5\",\"input\":\"hi\"}"))).isEqualTo(Decision.PROCEED);
    }

    private UnsupportedInputs step(PolicyProperties.UnknownInput handling) {
        return new UnsupportedInputs(handling, events::add, Clock.systemUTC());
    }
}
