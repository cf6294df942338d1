package com.sandboxgateway.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.budget.PricingProperties;
import com.sandboxgateway.ownership.OwnershipProperties;
import com.sandboxgateway.config.DomainName;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.config.TeamPolicies;

/**
 * {@code /actuator/policies} (admin role): the policy each team works under, after narrowing, and the
 * org-wide rules for files, sanitization, findings, ownership and pricing. {@code /{team}} answers 404
 * for a team that neither has settings nor any key. Never a key: the pseudonymization key is not part
 * of the view.
 */
@Component
@Endpoint(id = "policies")
class PoliciesEndpoint {

    private static final String ORG = "*";

    private final TeamPolicies teams;
    private final ApiKeyAuthenticator authenticator;
    private final PolicyProperties.Org org;
    private final OwnershipProperties ownership;
    private final PricingProperties pricing;

    PoliciesEndpoint(TeamPolicies teams, ApiKeyAuthenticator authenticator, PolicyProperties policy,
                     OwnershipProperties ownership, PricingProperties pricing) {
        this.teams = teams;
        this.authenticator = authenticator;
        this.org = policy.org();
        this.ownership = ownership;
        this.pricing = pricing;
    }

    /**
     * One team's effective policy; team {@code *} is the org's, which every team without settings gets.
     *
     * @param narrowed whether the team has settings of its own
     */
    record TeamView(String team, boolean narrowed, List<String> allowedDomains, Set<String> allowedMemoryLimits,
                    int maxIdleMinutes, Set<String> allowedTools, EffectivePolicy.Limits limits) {
    }

    /** Sizes and durations as configured ({@code 100MB}, {@code PT1H}), with the size in bytes as well. */
    record FilesView(String maxUploadSize, long maxUploadBytes, String defaultExpiry, String maxExpiry,
                     boolean deleteAfterUse, List<String> opaqueExtensions) {
    }

    /** The org-wide rules, without the pseudonymization key. */
    record OrgView(FilesView files, List<String> dropColumns, List<String> pseudonymizeColumns, boolean neutralizeFormulas,
                   Map<String, PolicyProperties.Profile> profiles, String secrets, String pii, String injection,
                   String ownershipScope, boolean stopRunawaySessions, PricingProperties pricing) {
    }

    record Policies(OrgView org, Map<String, TeamView> teams) {
    }

    @ReadOperation
    Policies all() {
        Map<String, TeamView> views = new LinkedHashMap<>();
        teams.all().forEach((team, policy) -> views.put(team, view(team, policy)));
        for (String team : keyTeams()) {
            views.putIfAbsent(team, view(team, teams.of(team)));
        }
        return new Policies(orgView(), views);
    }

    /** A team's effective policy (the org's for a team with keys but no settings of its own); {@code null} (404) otherwise. */
    @ReadOperation
    TeamView team(@Selector String team) {
        if (!team.equals(ORG) && !teams.all().containsKey(team) && !keyTeams().contains(team)) {
            return null;
        }
        return view(team, teams.of(team));
    }

    private Set<String> keyTeams() {
        Set<String> names = new TreeSet<>();
        authenticator.principals().stream().map(Principal::team).forEach(names::add);
        return names;
    }

    private OrgView orgView() {
        PolicyProperties.Files files = org.files();
        PolicyProperties.Sanitization sanitization = org.sanitization();
        return new OrgView(new FilesView(size(files.maxUploadSize()), files.maxUploadSize().toBytes(),
                files.defaultExpiry().toString(), files.maxExpiry().toString(), files.deleteAfterUse(), files.opaqueExtensions()),
                sanitization.dropColumns(), sanitization.pseudonymizeColumns(), sanitization.neutralizeFormulas(),
                sanitization.profiles(), name(org.secrets().action()), name(org.pii().action()), name(org.injection().action()),
                name(ownership.scope()), org.turns().stopRunawaySessions(), pricing);
    }

    private TeamView view(String team, EffectivePolicy policy) {
        return new TeamView(team, !policy.team().equals(ORG),
                policy.allowedDomains().stream().map(DomainName::ascii).toList(), policy.allowedMemoryLimits(),
                policy.maxIdleMinutes(), policy.allowedTools(), policy.limits());
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** {@code 100MB}, {@code 512KB}, or bytes: as an operator would write it in the configuration. */
    private static String size(DataSize size) {
        long bytes = size.toBytes();
        for (DataUnit unit : new DataUnit[] {DataUnit.TERABYTES, DataUnit.GIGABYTES, DataUnit.MEGABYTES, DataUnit.KILOBYTES}) {
            long perUnit = DataSize.of(1, unit).toBytes();
            if (bytes >= perUnit && bytes % perUnit == 0) {
                return bytes / perUnit + unit.name().substring(0, 1) + "B";
            }
        }
        return bytes + "B";
    }
}
