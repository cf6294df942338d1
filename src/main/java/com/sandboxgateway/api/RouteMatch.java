package com.sandboxgateway.api;

import java.util.Map;

/**
 * A request matched to a {@link Route}, with the ids its path carries (keyed by template name, e.g.
 * {@code file_id}).
 */
public record RouteMatch(Route route, Map<String, String> ids) {

    public RouteMatch {
        ids = Map.copyOf(ids);
    }

    public String id(String name) {
        return ids.get(name);
    }
}
