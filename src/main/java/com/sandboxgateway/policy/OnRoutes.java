package com.sandboxgateway.policy;

import java.util.EnumSet;
import java.util.Set;

import com.sandboxgateway.api.Route;

/**
 * One line of the chain table: a request step, a response inspector or an after-answer action, and the
 * routes it applies to. What it is for is decided here, in one place; the part itself never asks which
 * route it is on to decide whether to run.
 */
public record OnRoutes<T>(T part, Set<Route> routes) {

    public OnRoutes {
        routes = Set.copyOf(routes);
    }

    /** The part, on the given routes only. */
    public static <T> OnRoutes<T> on(T part, Set<Route> routes) {
        return new OnRoutes<>(part, routes);
    }

    /** The part, on every route. */
    public static <T> OnRoutes<T> always(T part) {
        return new OnRoutes<>(part, EnumSet.allOf(Route.class));
    }

    public boolean appliesTo(Route route) {
        return routes.contains(route);
    }
}
