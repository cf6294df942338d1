package com.sandboxgateway.budget;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.store.SqlDialect;
import com.sandboxgateway.support.Exchanges;

/** How a request's session is resolved before it goes upstream, from its body and the turn charges in an H2. */
class SessionsTest {

    private final BudgetFixture fixture = new BudgetFixture("sessions");
    private final Sessions sessions = fixture.sessions;

    @Test
    void shouldTakeTheConversationAsTheSession() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-4.1","input":"go on","conversation":{"id":"conv_1"},"previous_response_id":"resp_0"}""");

        assertThat(sessions.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.session()).isEqualTo("conv_1");
    }

    @Test
    void shouldContinueTheSessionOfTheResponseItContinues() {
        charge("resp_2", "sess_root");
        Exchange known = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-4.1","input":"go on","previous_response_id":"resp_2"}""");
        Exchange unknown = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-4.1","input":"go on","previous_response_id":"resp_elsewhere"}""");

        sessions.apply(known);
        sessions.apply(unknown);

        assertThat(known.session()).isEqualTo("sess_root");
        assertThat(unknown.session()).as("a response not created through the gateway roots its own").isEqualTo("resp_elsewhere");
    }

    @Test
    void shouldStartASessionWhenTheResponseBelongsToNone() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, "{\"model\":\"gpt-4.1\",\"input\":\"hello\"}");

        assertThat(sessions.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.session()).as("until the answer names the response").isNull();
    }

    @Test
    void shouldPutAFetchedResponseInTheSessionItWasCreatedIn() {
        charge("id_1", "sess_created");
        Exchange exchange = Exchanges.on(Route.RESPONSE_GET);
        exchange.sessionResolved("sess_the_client_named");

        assertThat(sessions.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.session()).isEqualTo("sess_created");
        assertThat(exchange.get(Sessions.STORED_CHARGE).chargeId()).isEqualTo("id_1");
    }

    @Test
    void shouldRefuseAContinuationWhoseSessionCannotBeRead() {
        JdbcDataSource unmigrated = new JdbcDataSource();
        unmigrated.setURL("jdbc:h2:mem:sessions-unmigrated;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE");
        Sessions blind = new Sessions(new JdbcBudgetStore(JdbcClient.create(unmigrated), new SqlDialect(true, false), fixture.clock),
                fixture.failures);
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-4.1","input":"go on","previous_response_id":"resp_2"}""");

        assertRefused(blind.apply(exchange), ErrorCode.STATE_UNAVAILABLE, null, "turn budgets");
        assertThat(exchange.session()).isNull();
    }

    private void charge(String responseId, String session) {
        fixture.budgets.store().record(new BudgetStore.TurnCharge(responseId, "alice", "analytics", session, fixture.today, 2, 1));
    }
}
