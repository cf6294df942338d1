package com.sandboxgateway.policy;

import java.util.List;
import java.util.Set;

/**
 * The policy one team works under: the org's, narrowed by the team's own settings.
 *
 * @param allowedDomains normalized; empty means the team may not open the network
 */
public record EffectivePolicy(String team, List<DomainName> allowedDomains, Set<String> allowedMemoryLimits,
                              int maxIdleMinutes, Set<String> allowedTools) {

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
