package com.sandboxgateway.admin;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * The part of an admin request's subject that may come from the path or from the query. The actuator
 * lets a query parameter silently override a path selector of the same name, so the endpoints take the
 * path whole and check here that the two agree.
 */
final class PathOrQuery {

    private PathOrQuery() {
    }

    /** The segment at {@code index}, or {@code null} when the path is shorter. */
    static String segment(String[] path, int index) {
        return index < path.length ? path[index] : null;
    }

    /**
     * The path's value or the query's (both are fine when they agree); one of them is needed.
     *
     * @param usage how the endpoint is called, appended to the refusal
     */
    static String once(String name, String inPath, String inQuery, String usage) {
        if (inPath != null && inQuery != null && !inPath.equals(inQuery)) {
            throw new InvalidEndpointRequestException("The " + name + " is named twice: '" + inPath + "' in the path and '"
                    + inQuery + "' in the query. Name it once.", "conflicting " + name);
        }
        String value = inPath != null ? inPath : inQuery;
        if (value == null || value.isBlank()) {
            throw new InvalidEndpointRequestException("No " + name + " named. " + usage, "missing " + name);
        }
        return value;
    }

    /** Refuses a path longer than {@code most} segments. */
    static void atMost(String[] path, int most, String usage) {
        if (path.length > most) {
            throw new InvalidEndpointRequestException("Too many path segments. " + usage, "bad path");
        }
    }
}
