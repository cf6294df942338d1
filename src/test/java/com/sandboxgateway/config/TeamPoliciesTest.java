package com.sandboxgateway.config;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import com.sandboxgateway.api.InvalidSettingException;

class TeamPoliciesTest {

    private static final PolicyProperties.Org ORG = new PolicyProperties.Org(
            new PolicyProperties.Files(DataSize.ofMegabytes(100), Duration.ofHours(1), Duration.ofDays(7), false, List.of("txt"),
                    PolicyProperties.ArchivePolicy.SANITIZE, false, DataSize.ofGigabytes(1), 10000, 100,
                    new PolicyProperties.FileUrls(List.of(), Duration.ofSeconds(5), Duration.ofSeconds(30))),
            new PolicyProperties.Sanitization(null, List.of(), List.of(), true, Map.of()),
            new PolicyProperties.Network(List.of("pypi.org", "*.example.com")),
            new PolicyProperties.Containers(List.of("1g", "4g"), 20),
            new PolicyProperties.Tools(List.of("code_interpreter", "function")),
            new PolicyProperties.Secrets(PolicyProperties.SecretsAction.BLOCK), new PolicyProperties.Pii(PolicyProperties.PiiAction.REPORT),
            new PolicyProperties.RateLimit(60, 10, 600), new PolicyProperties.Turns(20, 500, false, null),
            new PolicyProperties.Spend(new BigDecimal("50")),
            new PolicyProperties.Injection(PolicyProperties.InjectionAction.REPORT), PolicyProperties.UnknownInput.REFUSE,
            new PolicyProperties.Skills(List.of(), true, true));

    @Test
    void shouldGiveATeamWithoutSettingsTheOrgPolicy() {
        EffectivePolicy policy = new TeamPolicies(new PolicyProperties(ORG, Map.of())).of("anyone");

        assertThat(policy.allowedDomains()).extracting(DomainName::ascii).containsExactly("pypi.org", "*.example.com");
        assertThat(policy.allowedMemoryLimits()).containsExactlyInAnyOrder("1g", "4g");
        assertThat(policy.maxIdleMinutes()).isEqualTo(20);
    }

    @Test
    void shouldNarrowToTheTeamsOwnSettings() {
        EffectivePolicy policy = new TeamPolicies(new PolicyProperties(ORG, Map.of("analytics", new PolicyProperties.Team(
                new PolicyProperties.TeamNetwork(List.of("api.example.com")), new PolicyProperties.TeamContainers(List.of("1g"), 5),
                new PolicyProperties.Tools(List.of("code_interpreter")), new PolicyProperties.TeamRateLimit(30, null, null),
                new PolicyProperties.TeamTurns(5, null), new PolicyProperties.TeamSpend(new BigDecimal("12.50")), null)))).of("analytics");

        assertThat(policy.allowedDomains()).extracting(DomainName::ascii).containsExactly("api.example.com");
        assertThat(policy.allowedMemoryLimits()).containsExactly("1g");
        assertThat(policy.maxIdleMinutes()).isEqualTo(5);
        assertThat(policy.allowedTools()).containsExactly("code_interpreter");
        assertThat(policy.limits()).isEqualTo(new EffectivePolicy.Limits(30, 10, 600, 5, 500, new BigDecimal("12.50")));
    }

    @Test
    void shouldRefuseToStartWhenATeamWidensTheOrg() {
        assertWidens(new PolicyProperties.Team(new PolicyProperties.TeamNetwork(List.of("evil.org")), null, null, null, null, null, null),
                "network.allowed-domains", "evil.org");
        assertWidens(new PolicyProperties.Team(null, new PolicyProperties.TeamContainers(List.of("64g"), null), null, null, null, null, null),
                "containers.allowed-memory-limits", "64g");
        assertWidens(new PolicyProperties.Team(null, new PolicyProperties.TeamContainers(null, 60), null, null, null, null, null),
                "containers.max-idle-minutes", "60");
        assertWidens(new PolicyProperties.Team(null, null, new PolicyProperties.Tools(List.of("web_search")), null, null, null, null),
                "tools.allowed", "web_search");
        assertWidens(new PolicyProperties.Team(null, null, null, new PolicyProperties.TeamRateLimit(null, 11, null), null, null, null),
                "rate-limit.burst", "11");
        assertWidens(new PolicyProperties.Team(null, null, null, null, new PolicyProperties.TeamTurns(null, 501), null, null),
                "turns.max-per-user-per-day", "501");
        assertWidens(new PolicyProperties.Team(null, null, null, null, null, new PolicyProperties.TeamSpend(new BigDecimal("50.01")), null),
                "spend.max-usd-per-team-per-day", "50.01");
    }

    @Test
    void shouldRefuseToStartOnATeamEntryThatIsNotADomain() {
        PolicyProperties.Team broken = new PolicyProperties.Team(new PolicyProperties.TeamNetwork(List.of("https://pypi.org")),
                null, null, null, null, null, null);

        assertRefused(() -> new TeamPolicies(new PolicyProperties(ORG, Map.of("analytics", broken))),
                "gateway.policy.teams.analytics.network.allowed-domains", "https://pypi.org");
    }

    @Test
    void shouldRefuseToStartOnTheFormerStopAfterFailuresNamingItsReplacement() {
        assertThatThrownBy(() -> new PolicyProperties.Turns(20, 500, false, 2))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("gateway.policy.org.turns.stop-after-failures").hasMessageContaining("gateway.review.failure-streak")
                .satisfies(e -> assertThat(((InvalidSettingException) e).action()).contains("stop-runaway-sessions"));
    }

    private static void assertWidens(PolicyProperties.Team team, String key, String value) {
        assertThatThrownBy(() -> new TeamPolicies(new PolicyProperties(ORG, Map.of("analytics", team))))
                .hasMessageContaining("team 'analytics'").hasMessageContaining("gateway.policy.teams.analytics." + key)
                .hasMessageContaining(value);
    }
}
