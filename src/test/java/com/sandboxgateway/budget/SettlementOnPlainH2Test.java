package com.sandboxgateway.budget;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;


import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import com.sandboxgateway.ownership.OwnedObject;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * An answer's settlement on H2 outside its PostgreSQL mode (the benchmark's {@code jdbc:h2:mem:} URL), which takes no
 * {@code ON CONFLICT}: the audit record, the owner records and the charges go to the file's maps, made once by id. A
 * response shown twice is audited, owned and charged once.
 */
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:settlement-plain-h2;DB_CLOSE_DELAY=-1")
class SettlementOnPlainH2Test extends GatewayIntegrationTest {

    @Autowired
    private OwnershipStore owners;

    @Autowired
    private Budgets budgets;

    @Test
    void shouldAuditOwnAndChargeAResponseShownTwiceOnce() throws Exception {
        String response = unique("resp_");
        String call = unique("ci_");
        String container = unique("cntr_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(response, container)
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", call))));

        HttpResponse<String> first = codeRunningResponse();
        HttpResponse<String> second = codeRunningResponse();

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(audited(record -> call.equals(record.callId()))).hasSize(1);
        assertThat(owners.findAll(List.of(response, call, container))).extracting(OwnedObject::ownerUser)
                .containsExactly("alice", "alice", "alice");
        assertThat(Charges.turns(budgets, response, "alice")).containsExactly(1);
        assertThat(Charges.spend(budgets, "response:" + response)).hasSize(1);
        assertThat(Charges.spend(budgets, "container:" + container)).hasSize(1);
        assertThat(second.headers().firstValue("X-Gateway-Turns-Remaining")).as("the second reservation given back whole")
                .isEqualTo(first.headers().firstValue("X-Gateway-Turns-Remaining"));
    }

    private HttpResponse<String> codeRunningResponse() throws Exception {
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).header("Content-Type", "application/json")
                .header("X-Gateway-Session", "plain-h2-session").POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot the revenue","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""")),
                "/v1/responses");
    }
}
