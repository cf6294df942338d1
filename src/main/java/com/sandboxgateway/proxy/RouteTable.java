package com.sandboxgateway.proxy;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Matches a method and raw request path against the {@link Route}s. Ids must be plain tokens: a
 * segment with percent-encoding, dots or other punctuation matches nothing, so no encoded slash or
 * {@code ..} can smuggle a different upstream path through an id.
 */
final class RouteTable {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,200}");

    Optional<RouteMatch> match(String method, String rawPath) {
        if (!rawPath.startsWith("/")) {
            return Optional.empty();
        }
        List<String> segments = List.of(rawPath.substring(1).split("/", -1));
        for (Route route : Route.values()) {
            if (route.method().equals(method)) {
                Map<String, String> ids = bind(route.segments(), segments);
                if (ids != null) {
                    return Optional.of(new RouteMatch(route, ids));
                }
            }
        }
        return Optional.empty();
    }

    private static Map<String, String> bind(List<String> template, List<String> actual) {
        if (template.size() != actual.size()) {
            return null;
        }
        Map<String, String> ids = new HashMap<>();
        for (int i = 0; i < template.size(); i++) {
            String expected = template.get(i);
            String segment = actual.get(i);
            if (expected.startsWith("{")) {
                if (!ID.matcher(segment).matches()) {
                    return null;
                }
                ids.put(expected.substring(1, expected.length() - 1), segment);
            } else if (!expected.equals(segment)) {
                return null;
            }
        }
        return ids;
    }
}
