package com.sandboxgateway.config;

import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * The policy one team works under: the org's, narrowed by the team's own settings.
 *
 * @param allowedDomains normalized; empty means the team may not open the network
 * @param limits rates, turns and spend
 */
public record EffectivePolicy(String team, List<DomainName> allowedDomains, Set<String> allowedMemoryLimits,
                              int maxIdleMinutes, Set<String> allowedTools, Limits limits) {

    /**
     * @param requestsPerMinute sustained requests of one user
     * @param burst requests one user may send at once
     * @param teamRequestsPerMinute sustained requests of the whole team
     * @param turnsPerSession executed code blocks per session
     * @param turnsPerUserPerDay executed code blocks per user and day (UTC)
     * @param maxUsdPerDay the team's daily spend cap
     */
    public record Limits(int requestsPerMinute, int burst, int teamRequestsPerMinute, int turnsPerSession,
                         int turnsPerUserPerDay, BigDecimal maxUsdPerDay) {
    }

    public EffectivePolicy {
        allowedDomains = List.copyOf(allowedDomains);
        allowedMemoryLimits = Set.copyOf(allowedMemoryLimits);
        allowedTools = Set.copyOf(allowedTools);
    }

    /** Whether a requested (normalized) domain is admitted by one of the team's entries. */
    public boolean admits(DomainName requested) {
        return allowedDomains.stream().anyMatch(entry -> entry.admits(requested));
    }
}
