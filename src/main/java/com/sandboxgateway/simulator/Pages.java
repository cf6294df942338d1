package com.sandboxgateway.simulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** OpenAI's cursor pages: {@code limit}, {@code order} ({@code desc} by default), {@code after} an id. */
final class Pages {

    private Pages() {
    }

    /**
     * @param oldestFirst every object, in the order it was created
     * @param defaultLimit the route's default page size
     */
    static ObjectNode page(Call call, List<ObjectNode> oldestFirst, int defaultLimit, int maxLimit) {
        int limit = limit(call.query("limit"), defaultLimit, maxLimit);
        List<ObjectNode> ordered = new ArrayList<>(oldestFirst);
        String order = call.query("order") == null ? "desc" : call.query("order");
        if (order.equals("desc")) {
            Collections.reverse(ordered);
        } else if (!order.equals("asc")) {
            throw ApiError.invalid("Invalid value for 'order': expected 'asc' or 'desc'.", "order");
        }
        int start = 0;
        String after = call.query("after");
        if (after != null) {
            for (int i = 0; i < ordered.size(); i++) {
                if (ordered.get(i).path("id").asString().equals(after)) {
                    start = i + 1;
                    break;
                }
            }
        }
        List<ObjectNode> data = ordered.subList(Math.min(start, ordered.size()), Math.min(start + limit, ordered.size()));
        ObjectNode page = Call.JSON.createObjectNode().put("object", "list");
        ArrayNode array = page.putArray("data");
        data.forEach(array::add);
        page.put("first_id", data.isEmpty() ? null : data.getFirst().path("id").asString());
        page.put("last_id", data.isEmpty() ? null : data.getLast().path("id").asString());
        page.put("has_more", start + limit < ordered.size());
        return page;
    }

    private static int limit(String value, int defaultLimit, int maxLimit) {
        if (value == null) {
            return defaultLimit;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= maxLimit) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiError.invalid("Invalid 'limit': expected an integer between 1 and " + maxLimit + ".", "limit");
    }
}
