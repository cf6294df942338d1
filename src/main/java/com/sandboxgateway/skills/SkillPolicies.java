package com.sandboxgateway.skills;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.config.TeamPolicies;

/**
 * Resolves each team's {@link SkillPolicy} once, at startup, and refuses to start when a team's skill
 * settings would widen the org's (a listed skill the org does not list, uploads or inline skills the org
 * forbids), as {@link TeamPolicies} does for the rest of the policy.
 */
public final class SkillPolicies {

    private final SkillPolicy org;
    private final Map<String, SkillPolicy> teams = new HashMap<>();

    public SkillPolicies(PolicyProperties properties) {
        PolicyProperties.Skills skills = properties.org().skills();
        this.org = new SkillPolicy(Set.copyOf(skills.allowed()), skills.allowUploaded(), skills.allowInline());
        properties.teams().forEach((team, narrowing) -> teams.put(team, narrow(team, narrowing.skills())));
    }

    /** The skill policy of a team; the org's for a team without skill settings. */
    public SkillPolicy of(String team) {
        return teams.getOrDefault(team, org);
    }

    private SkillPolicy narrow(String team, PolicyProperties.TeamSkills narrowing) {
        if (narrowing == null) {
            return org;
        }
        String prefix = "gateway.policy.teams." + team + ".skills.";
        Set<String> allowed = org.allowed();
        if (narrowing.allowed() != null) {
            allowed = Set.copyOf(narrowing.allowed());
            for (String id : allowed) {
                if (!org.allowed().contains(id)) {
                    throw TeamPolicies.widens(team, prefix + "allowed", id);
                }
            }
        }
        return new SkillPolicy(allowed, flag(team, narrowing.allowUploaded(), org.allowUploaded(), prefix + "allow-uploaded"),
                flag(team, narrowing.allowInline(), org.allowInline(), prefix + "allow-inline"));
    }

    /** A team's switch, or the org's when the team sets none; on where the org's is off would widen it. */
    private static boolean flag(String team, Boolean value, boolean org, String key) {
        if (value == null) {
            return org;
        }
        if (value && !org) {
            throw TeamPolicies.widens(team, key, "true");
        }
        return value;
    }
}
