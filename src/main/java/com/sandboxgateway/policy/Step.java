package com.sandboxgateway.policy;

import java.util.EnumSet;
import java.util.Set;

import com.sandboxgateway.api.Route;

/**
 * One line of the chain table: a request step and the routes it applies to. The step itself never asks
 * which route it is on to decide whether to run; the table says so, in one place.
 */
public record Step(RequestStep step, Set<Route> routes) {

    public Step {
        routes = Set.copyOf(routes);
    }

    /** The step, on the given routes only. */
    public static Step on(RequestStep step, Set<Route> routes) {
        return new Step(step, routes);
    }

    /** The step, on every route. */
    public static Step always(RequestStep step) {
        return new Step(step, EnumSet.allOf(Route.class));
    }

    public boolean appliesTo(Route route) {
        return routes.contains(route);
    }
}
