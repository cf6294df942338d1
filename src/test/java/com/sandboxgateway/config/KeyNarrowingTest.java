package com.sandboxgateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import com.sandboxgateway.auth.KeyLimits;
import com.sandboxgateway.auth.Principal;

/** A run-time key's limits narrow its team's policy and never widen it. */
class KeyNarrowingTest {

    private final TeamPolicies teams = new TeamPolicies(new Binder(new MapConfigurationPropertySource(Map.of(
            "gateway.policy.org.tools.allowed", "code_interpreter,function",
            "gateway.policy.org.turns.max-per-session", "50",
            "gateway.policy.teams.finance.tools.allowed", "code_interpreter",
            "gateway.policy.teams.finance.turns.max-per-session", "10")))
            .bindOrCreate("gateway.policy", PolicyProperties.class));

    @Test
    void shouldKeepOnlyToolsBothAllowAndTheLowerTurns() {
        EffectivePolicy narrowed = teams.of(key("finance", new KeyLimits(null, Set.of("code_interpreter", "function"), 20)));

        assertThat(narrowed.allowedTools()).containsExactly("code_interpreter");
        assertThat(narrowed.limits().turnsPerSession()).as("the team's 10, not the key's 20").isEqualTo(10);
        assertThat(teams.of(key("finance", new KeyLimits(null, Set.of("function"), 3))).allowedTools()).isEmpty();
        assertThat(teams.of(key("finance", new KeyLimits(null, null, 3))).limits().turnsPerSession()).isEqualTo(3);
    }

    @Test
    void shouldGiveAPrincipalWithoutKeyLimitsItsTeamsPolicy() {
        assertThat(teams.of(new Principal("bob", "finance", Set.of("user")))).isSameAs(teams.of("finance"));
        assertThat(teams.of(key("finance", new KeyLimits(5, null, null)))).as("a key's rate is its own bucket")
                .isSameAs(teams.of("finance"));
    }

    private static Principal key(String team, KeyLimits limits) {
        return new Principal("kim", team, Set.of("user"), "key_1", limits);
    }
}
