package com.sandboxgateway.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.upstream.LocalUpstream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link OwnedListFilter} on its own (no Spring), against a local upstream: the org-wide container list becomes
 * alice's, further upstream pages read until her {@code limit} is filled, and a failed page read fails the call.
 */
class OwnedListFilterTest {

    private static final Principal BOB = new Principal("bob", "finance", Set.of("user"));
    /** The first upstream page: two of bob's containers around one of alice's, more to come. */
    private static final String FIRST_PAGE = "{\"object\":\"list\",\"data\":[{\"id\":\"cntr_b1\"},{\"id\":\"cntr_a1\"},{\"id\":\"cntr_b2\"}],"
            + "\"first_id\":\"cntr_b1\",\"last_id\":\"cntr_b2\",\"has_more\":true}";

    private final Owners owners = Owners.none()
            .owning(Exchanges.ALICE, "cntr_a1", ObjectKind.CONTAINER).owning(Exchanges.ALICE, "cntr_a2", ObjectKind.CONTAINER)
            .owning(Exchanges.ALICE, "cntr_a3", ObjectKind.CONTAINER)
            .owning(BOB, "cntr_b1", ObjectKind.CONTAINER).owning(BOB, "cntr_b2", ObjectKind.CONTAINER);

    @Test
    void shouldFillTheClientsPageWithHerOwnContainersFromFurtherUpstreamPages() throws Exception {
        String secondPage = "{\"object\":\"list\",\"data\":[{\"id\":\"cntr_a2\"},{\"id\":\"cntr_b3\"},{\"id\":\"cntr_a3\"}],"
                + "\"first_id\":\"cntr_a2\",\"last_id\":\"cntr_a3\",\"has_more\":false}";
        try (LocalUpstream upstream = new LocalUpstream(call -> new LocalUpstream.Reply(200, secondPage))) {
            OwnedListFilter filter = new OwnedListFilter(owners.ownership(), upstream.client(), JsonMapper.builder().build());

            JsonNode page = filter.follow(containersList("limit=2&order=desc"), Answer.ofJson(Exchanges.tree(FIRST_PAGE), false)).json();

            assertThat(page.path("data").valueStream().map(item -> item.path("id").asString())).containsExactly("cntr_a1", "cntr_a2");
            assertThat(page.path("first_id").asString()).isEqualTo("cntr_a1");
            assertThat(page.path("last_id").asString()).as("the cursor of alice's next page").isEqualTo("cntr_a2");
            assertThat(page.path("has_more").asBoolean()).as("cntr_a3 is left for the next page").isTrue();
            assertThat(upstream.calls()).containsExactly("GET /v1/containers?order=desc&after=cntr_b2&limit=100");
        }
    }

    @Test
    void shouldFailTheCallWhenTheUpstreamCannotGiveTheNextPage() throws Exception {
        try (LocalUpstream upstream = new LocalUpstream(call -> new LocalUpstream.Reply(500, "{\"error\":{\"message\":\"down\"}}"))) {
            OwnedListFilter filter = new OwnedListFilter(owners.ownership(), upstream.client(), JsonMapper.builder().build());

            assertThatThrownBy(() -> filter.follow(containersList("limit=2"), Answer.ofJson(Exchanges.tree(FIRST_PAGE), false)))
                    .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_ERROR));
        }
    }

    @Test
    void shouldDropForeignContainersWithoutAnotherCallWhenTheUpstreamHasNoMore() throws Exception {
        try (LocalUpstream upstream = new LocalUpstream(call -> new LocalUpstream.Reply(500, "{}"))) {
            OwnedListFilter filter = new OwnedListFilter(owners.ownership(), upstream.client(), JsonMapper.builder().build());
            String lastPage = FIRST_PAGE.replace("\"has_more\":true", "\"has_more\":false");

            JsonNode page = filter.follow(containersList(null), Answer.ofJson(Exchanges.tree(lastPage), false)).json();

            assertThat(page.path("data").valueStream().map(item -> item.path("id").asString())).containsExactly("cntr_a1");
            assertThat(page.path("has_more").asBoolean()).isFalse();
            assertThat(upstream.calls()).isEmpty();
        }
    }

    private static Exchange containersList(String rawQuery) {
        return new Exchange("gwreq_test", Exchanges.ALICE, new RouteMatch(Route.CONTAINERS_LIST, Map.of()), "/v1/containers", rawQuery,
                null, null, new RequestBody.None());
    }
}
