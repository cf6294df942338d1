package com.sandboxgateway.ownership;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.AfterAnswer;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the org-wide file, container and skill lists into the caller's own: foreign objects are dropped and
 * further upstream pages are read (an after-answer action: more calls to the upstream) until the client's {@code limit} is filled, so {@code has_more},
 * {@code first_id} and {@code last_id} keep their meaning and the SDKs' auto-paging works.
 */
public final class OwnedListFilter implements AfterAnswer {

    /** Upper bound on upstream pages read for one client page, so a sea of foreign objects cannot stall a call. */
    private static final int MAX_PAGES = 50;

    private final Ownership ownership;
    private final UpstreamClient upstream;
    private final JsonMapper json;

    public OwnedListFilter(Ownership ownership, UpstreamClient upstream, JsonMapper json) {
        this.ownership = ownership;
        this.upstream = upstream;
        this.json = json;
    }

    @Override
    public Answer follow(Exchange exchange, Answer answer) {
        JsonNode firstPage = answer.json();
        boolean files = exchange.route().route() == Route.FILES_LIST;
        ListQuery query = ListQuery.parse(exchange.rawQuery());
        int limit = query.limit(files ? 10_000 : 20);
        int pageSize = files ? 10_000 : 100;
        List<JsonNode> own = new ArrayList<>();
        JsonNode page = firstPage;
        for (int pages = 1; ; pages++) {
            own.addAll(visible(page.path("data"), exchange));
            String cursor = lastId(page);
            if (own.size() > limit || !page.path("has_more").asBoolean(false) || cursor == null || pages == MAX_PAGES) {
                break;
            }
            page = fetch(exchange.path() + "?" + query.nextPage(cursor, pageSize), exchange);
        }
        boolean hasMore = own.size() > limit || page.path("has_more").asBoolean(false);
        return answer.replacedBy(list(firstPage, own.subList(0, Math.min(limit, own.size())), hasMore));
    }

    private List<JsonNode> visible(JsonNode data, Exchange exchange) {
        Set<String> ids = new LinkedHashSet<>();
        data.forEach(item -> ids.add(item.path("id").asString("")));
        Set<String> visible = ownership.visibleIds(ids, exchange.principal());
        List<JsonNode> items = new ArrayList<>();
        data.forEach(item -> {
            if (visible.contains(item.path("id").asString(""))) {
                items.add(item);
            }
        });
        return items;
    }

    private ObjectNode list(JsonNode template, List<JsonNode> items, boolean hasMore) {
        ObjectNode list = template.isObject() ? ((ObjectNode) template).deepCopy() : json.createObjectNode();
        ArrayNode data = list.putArray("data");
        items.forEach(data::add);
        list.put("first_id", items.isEmpty() ? null : items.getFirst().path("id").asString());
        list.put("last_id", items.isEmpty() ? null : items.getLast().path("id").asString());
        list.put("has_more", hasMore);
        return list;
    }

    private static String lastId(JsonNode page) {
        JsonNode data = page.path("data");
        return data.isEmpty() ? null : data.get(data.size() - 1).path("id").asString(null);
    }

    private JsonNode fetch(String pathAndQuery, Exchange exchange) {
        UpstreamRequest request = new UpstreamRequest(exchange.principal().team(), "GET", pathAndQuery, Map.of("Accept", "application/json"),
                new UpstreamRequest.NoBody(), false);
        try (UpstreamResponse answer = upstream.send(request)) {
            if (answer.status() != 200) {
                throw new GatewayException(ErrorCode.UPSTREAM_ERROR,
                        "The upstream API failed while the gateway read further list pages (status " + answer.status()
                                + "). Retry later.");
            }
            return json.readTree(answer.readBody(64 << 20));
        } catch (IOException e) {
            throw UpstreamClient.failure(e);
        } catch (JacksonException e) {
            throw new GatewayException(ErrorCode.UPSTREAM_ERROR, "The upstream API answered a list page with malformed JSON.",
                    null, e);
        }
    }
}
