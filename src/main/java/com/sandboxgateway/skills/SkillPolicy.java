package com.sandboxgateway.skills;

import java.util.Set;

/**
 * The skills one team may give a container: the org's {@code gateway.policy.org.skills}, narrowed by the
 * team's own settings.
 *
 * @param allowed skill ids anyone of the team may reference, though no one created them through the gateway
 * @param allowUploaded whether the team may create skills through {@code /v1/skills} and reference its own
 * @param allowInline whether a request may carry a skill inline
 */
public record SkillPolicy(Set<String> allowed, boolean allowUploaded, boolean allowInline) {

    public SkillPolicy {
        allowed = Set.copyOf(allowed);
    }
}
