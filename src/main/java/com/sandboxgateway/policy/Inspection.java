package com.sandboxgateway.policy;

import java.util.Set;

import com.sandboxgateway.api.Route;

/**
 * One line of the chain table: a response inspector and the routes whose answers it sees (successful
 * JSON answers and the events of streams).
 */
public record Inspection(ResponseInspector inspector, Set<Route> routes) {

    public Inspection {
        routes = Set.copyOf(routes);
    }

    /** The inspector, on the given routes only. */
    public static Inspection on(ResponseInspector inspector, Set<Route> routes) {
        return new Inspection(inspector, routes);
    }

    public boolean appliesTo(Route route) {
        return routes.contains(route);
    }
}
