package com.sandboxgateway.review;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * Which hosts the session's container may reach, so that a flagged HTTP call can say whether its
 * target is allowed. Either the network is disabled (the container has no {@code network_policy}) or
 * an allowlist decides; the analyzer passes hosts lower-cased, without port or trailing dot, IDN
 * names as punycode.
 */
public final class HostPolicy {

    private static final HostPolicy NETWORK_DISABLED = new HostPolicy(host -> false);

    private final Predicate<String> allowed;

    private HostPolicy(Predicate<String> allowed) {
        this.allowed = allowed;
    }

    /** No host is reachable. */
    public static HostPolicy networkDisabled() {
        return NETWORK_DISABLED;
    }

    /** Hosts are reachable when {@code allowlist} says so, e.g. the session's {@code NetworkAllowlist} check. */
    public static HostPolicy allowing(Predicate<String> allowlist) {
        return new HostPolicy(Objects.requireNonNull(allowlist, "allowlist"));
    }

    /** {@code allowlist} as a policy, {@code null} meaning the network is disabled. */
    public static HostPolicy ofNullable(Predicate<String> allowlist) {
        return allowlist == null ? NETWORK_DISABLED : allowing(allowlist);
    }

    boolean allows(String host) {
        return allowed.test(host);
    }
}
