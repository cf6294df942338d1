package com.sandboxgateway.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.stereotype.Component;

import com.sandboxgateway.policy.DomainName;
import com.sandboxgateway.policy.EffectivePolicy;
import com.sandboxgateway.policy.PolicyProperties;
import com.sandboxgateway.policy.TeamPolicies;

/**
 * {@code /actuator/policies} (admin role): the policy each team works under, after narrowing, and the
 * org-wide file and sanitization rules. Never a key: the pseudonymization key is not part of the view.
 */
@Component
@Endpoint(id = "policies")
class PoliciesEndpoint {

    private final TeamPolicies teams;
    private final PolicyProperties.Org org;

    PoliciesEndpoint(TeamPolicies teams, PolicyProperties policy) {
        this.teams = teams;
        this.org = policy.org();
    }

    /** One team's effective policy; team {@code *} is the org's, which every unlisted team gets. */
    record TeamView(String team, List<String> allowedDomains, Set<String> allowedMemoryLimits, int maxIdleMinutes,
                    Set<String> allowedTools, EffectivePolicy.Limits limits) {
    }

    /** The org-wide rules, without the pseudonymization key. */
    record OrgView(PolicyProperties.Files files, List<String> dropColumns, List<String> pseudonymizeColumns,
                   boolean neutralizeFormulas, Map<String, PolicyProperties.Profile> profiles,
                   PolicyProperties.SecretsAction secrets, PolicyProperties.PiiAction pii) {
    }

    record Policies(OrgView org, Map<String, TeamView> teams) {
    }

    @ReadOperation
    Policies all() {
        Map<String, TeamView> views = new LinkedHashMap<>();
        teams.all().forEach((team, policy) -> views.put(team, view(policy)));
        PolicyProperties.Sanitization sanitization = org.sanitization();
        return new Policies(new OrgView(org.files(), sanitization.dropColumns(), sanitization.pseudonymizeColumns(),
                sanitization.neutralizeFormulas(), sanitization.profiles(), org.secrets().action(), org.pii().action()), views);
    }

    /** A team's effective policy (the org's for a team with no settings of its own). */
    @ReadOperation
    TeamView team(@Selector String team) {
        return view(teams.of(team));
    }

    private static TeamView view(EffectivePolicy policy) {
        return new TeamView(policy.team(), policy.allowedDomains().stream().map(DomainName::ascii).toList(),
                policy.allowedMemoryLimits(), policy.maxIdleMinutes(), policy.allowedTools(), policy.limits());
    }
}
