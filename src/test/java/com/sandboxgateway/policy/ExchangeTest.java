package com.sandboxgateway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.support.Exchanges;

class ExchangeTest {

    private static final Exchange.Slot<String> RESERVATION = Exchange.Slot.named("reservation");
    private static final Exchange.Slot<String> SAME_NAME = Exchange.Slot.named("reservation");
    private static final Exchange.Slot<List<String>> SEEN = Exchange.Slot.withInitial("seen", ArrayList::new);

    @Test
    void shouldHandOverWhatASlotHoldsOnceTaken() {
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);

        exchange.put(RESERVATION, "3 turns");

        assertThat(exchange.get(RESERVATION)).isEqualTo("3 turns");
        assertThat(exchange.take(RESERVATION)).isEqualTo("3 turns");
        assertThat(exchange.take(RESERVATION)).as("taken once").isNull();
        assertThat(exchange.get(RESERVATION)).isNull();
    }

    @Test
    void shouldKeepTwoSlotsOfOneNameApart() {
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);

        exchange.put(RESERVATION, "mine");

        assertThat(exchange.get(SAME_NAME)).as("another feature's slot of the same name").isNull();
    }

    @Test
    void shouldKeepWhatIsAddedToASlotsInitialValuePerExchange() {
        Exchange first = Exchanges.on(Route.RESPONSES_CREATE);
        Exchange second = Exchanges.on(Route.RESPONSES_CREATE);

        first.get(SEEN).add("ci_1");
        first.get(SEEN).add("ci_2");

        assertThat(first.get(SEEN)).containsExactly("ci_1", "ci_2");
        assertThat(second.get(SEEN)).isEmpty();
    }
}
