package com.sandboxgateway.ownership;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A list route's query string, kept as the client encoded it, with the paging parameters the gateway
 * needs to read and rewrite.
 */
record ListQuery(List<Map.Entry<String, String>> parameters) {

    static ListQuery parse(String rawQuery) {
        List<Map.Entry<String, String>> parameters = new ArrayList<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int equals = pair.indexOf('=');
                parameters.add(equals < 0 ? Map.entry(pair, "") : Map.entry(pair.substring(0, equals), pair.substring(equals + 1)));
            }
        }
        return new ListQuery(List.copyOf(parameters));
    }

    /** The client's {@code limit}, or the default when absent or unreadable (the upstream validates it). */
    int limit(int defaultLimit) {
        for (Map.Entry<String, String> parameter : parameters) {
            if (parameter.getKey().equals("limit")) {
                try {
                    return Math.max(1, Integer.parseInt(parameter.getValue()));
                } catch (NumberFormatException e) {
                    return defaultLimit;
                }
            }
        }
        return defaultLimit;
    }

    /** The same query asking for the page after {@code cursor}, {@code pageSize} items at a time. */
    String nextPage(String cursor, int pageSize) {
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, String> parameter : parameters) {
            if (!parameter.getKey().equals("after") && !parameter.getKey().equals("limit")) {
                query.append(parameter.getKey()).append('=').append(parameter.getValue()).append('&');
            }
        }
        return query.append("after=").append(java.net.URLEncoder.encode(cursor, java.nio.charset.StandardCharsets.UTF_8))
                .append("&limit=").append(pageSize).toString();
    }
}
