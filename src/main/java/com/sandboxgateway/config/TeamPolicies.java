package com.sandboxgateway.config;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.springframework.stereotype.Component;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.auth.KeyLimits;
import com.sandboxgateway.auth.Principal;

/**
 * Resolves each team's {@link EffectivePolicy} once, at startup, and refuses to start when a team
 * policy would widen the org's (a domain, tier or tool the org does not allow, a longer idle time):
 * a typo in a team's settings must never open what the org closed. The org's own values were checked
 * when {@link PolicyProperties} was bound.
 */
@Component
public class TeamPolicies {

    private final EffectivePolicy org;
    private final Map<String, EffectivePolicy> teams = new HashMap<>();

    public TeamPolicies(PolicyProperties properties) {
        PolicyProperties.Org orgPolicy = properties.org();
        this.org = new EffectivePolicy("*", DomainName.parseAll(orgPolicy.network().allowedDomains(), "gateway.policy.org.network.allowed-domains"),
                Set.copyOf(orgPolicy.containers().allowedMemoryLimits()), orgPolicy.containers().maxIdleMinutes(),
                Set.copyOf(orgPolicy.tools().allowed()), orgLimits(orgPolicy));
        properties.teams().forEach((team, narrowing) -> teams.put(team, narrow(team, narrowing)));
    }

    /** The policy of a team; the org's for a team without settings of its own. */
    public EffectivePolicy of(String team) {
        return teams.getOrDefault(team, org);
    }

    /**
     * The policy a caller works under: its team's, narrowed by the run-time key it used (allowed tools, turns
     * per session). A key's request rate is a bucket of its own beside the user's, not part of this policy.
     */
    public EffectivePolicy of(Principal principal) {
        EffectivePolicy team = of(principal.team());
        KeyLimits key = principal.limits();
        if (key.tools() == null && key.turnsPerSession() == null) {
            return team;
        }
        Set<String> tools = new HashSet<>(team.allowedTools());
        if (key.tools() != null) {
            tools.retainAll(key.tools());
        }
        EffectivePolicy.Limits limits = team.limits();
        int turns = key.turnsPerSession() == null ? limits.turnsPerSession() : Math.min(limits.turnsPerSession(), key.turnsPerSession());
        return new EffectivePolicy(team.team(), team.allowedDomains(), team.allowedMemoryLimits(), team.maxIdleMinutes(), tools,
                new EffectivePolicy.Limits(limits.requestsPerMinute(), limits.burst(), limits.teamRequestsPerMinute(), turns,
                        limits.turnsPerUserPerDay(), limits.maxUsdPerDay()));
    }

    /** The org's policy (team {@code *}) and every team's that narrows it, by team name. */
    public Map<String, EffectivePolicy> all() {
        Map<String, EffectivePolicy> all = new TreeMap<>(teams);
        all.put(org.team(), org);
        return all;
    }

    private EffectivePolicy narrow(String team, PolicyProperties.Team narrowing) {
        String prefix = "gateway.policy.teams." + team + ".";
        List<DomainName> domains = org.allowedDomains();
        if (narrowing.network() != null && narrowing.network().allowedDomains() != null) {
            domains = DomainName.parseAll(narrowing.network().allowedDomains(), prefix + "network.allowed-domains");
            for (DomainName domain : domains) {
                if (!org.admits(domain) && !org.allowedDomains().contains(domain)) {
                    throw widens(team, prefix + "network.allowed-domains", domain.ascii());
                }
            }
        }
        Set<String> tiers = org.allowedMemoryLimits();
        int idle = org.maxIdleMinutes();
        if (narrowing.containers() != null) {
            if (narrowing.containers().allowedMemoryLimits() != null) {
                tiers = PolicyProperties.Containers.requireTiers(narrowing.containers().allowedMemoryLimits(),
                        prefix + "containers.allowed-memory-limits");
                for (String tier : tiers) {
                    if (!org.allowedMemoryLimits().contains(tier)) {
                        throw widens(team, prefix + "containers.allowed-memory-limits", tier);
                    }
                }
            }
            if (narrowing.containers().maxIdleMinutes() != null) {
                idle = narrowing.containers().maxIdleMinutes();
                if (idle > org.maxIdleMinutes()) {
                    throw widens(team, prefix + "containers.max-idle-minutes", Integer.toString(idle));
                }
            }
        }
        Set<String> tools = org.allowedTools();
        if (narrowing.tools() != null && narrowing.tools().allowed() != null) {
            tools = Set.copyOf(narrowing.tools().allowed());
            for (String tool : tools) {
                if (!org.allowedTools().contains(tool)) {
                    throw widens(team, prefix + "tools.allowed", tool);
                }
            }
        }
        return new EffectivePolicy(team, domains, tiers, idle, tools, limits(team, narrowing, org.limits()));
    }

    private static EffectivePolicy.Limits orgLimits(PolicyProperties.Org org) {
        PolicyProperties.RateLimit rate = org.rateLimit();
        return new EffectivePolicy.Limits(rate.requestsPerMinute(), rate.burst(), rate.teamRequestsPerMinute(),
                org.turns().maxPerSession(), org.turns().maxPerUserPerDay(), org.spend().maxUsdPerTeamPerDay());
    }

    private static EffectivePolicy.Limits limits(String team, PolicyProperties.Team narrowing, EffectivePolicy.Limits org) {
        String prefix = "gateway.policy.teams." + team + ".";
        PolicyProperties.TeamRateLimit rate = narrowing.rateLimit();
        PolicyProperties.TeamTurns turns = narrowing.turns();
        PolicyProperties.TeamSpend spend = narrowing.spend();
        BigDecimal usd = spend == null || spend.maxUsdPerTeamPerDay() == null ? org.maxUsdPerDay() : spend.maxUsdPerTeamPerDay();
        if (usd.compareTo(org.maxUsdPerDay()) > 0 || usd.signum() < 0) {
            throw widens(team, prefix + "spend.max-usd-per-team-per-day", usd.toPlainString());
        }
        return new EffectivePolicy.Limits(
                atMost(team, rate == null ? null : rate.requestsPerMinute(), org.requestsPerMinute(), prefix + "rate-limit.requests-per-minute"),
                atMost(team, rate == null ? null : rate.burst(), org.burst(), prefix + "rate-limit.burst"),
                atMost(team, rate == null ? null : rate.teamRequestsPerMinute(), org.teamRequestsPerMinute(),
                        prefix + "rate-limit.team-requests-per-minute"),
                atMost(team, turns == null ? null : turns.maxPerSession(), org.turnsPerSession(), prefix + "turns.max-per-session"),
                atMost(team, turns == null ? null : turns.maxPerUserPerDay(), org.turnsPerUserPerDay(),
                        prefix + "turns.max-per-user-per-day"),
                usd);
    }

    /** A team's limit, or the org's when the team sets none; one above the org's would widen it. */
    private static int atMost(String team, Integer value, int org, String key) {
        if (value == null) {
            return org;
        }
        if (value > org || value <= 0) {
            throw widens(team, key, Integer.toString(value));
        }
        return value;
    }

    /** The startup refusal of a team setting that would open what the org policy closed. */
    public static InvalidSettingException widens(String team, String key, String value) {
        return new InvalidSettingException(key, value, "the policy of team '" + team
                + "' would widen the org policy, which does not allow this value",
                "Team policies may only narrow the org's (gateway.policy.org.*): remove the value from the team, "
                        + "or allow it in the org policy first.");
    }
}
