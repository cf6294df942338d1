package com.sandboxgateway.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.config.PolicyProperties;

class SkillPoliciesTest {

    private static final Map<String, String> ORG = Map.of(
            "gateway.policy.org.skills.allowed[0]", "openai-spreadsheets",
            "gateway.policy.org.skills.allowed[1]", "org-reports",
            "gateway.policy.org.skills.allow-inline", "false");

    @Test
    void shouldAllowUploadedAndInlineSkillsByDefault() {
        SkillPolicy policy = policies(Map.of()).of("anyone");

        assertThat(policy).isEqualTo(new SkillPolicy(Set.of(), true, true));
    }

    @Test
    void shouldNarrowToTheTeamsOwnSettings() {
        SkillPolicies policies = policies(with(Map.of("gateway.policy.teams.finance.skills.allowed[0]", "org-reports",
                "gateway.policy.teams.finance.skills.allow-uploaded", "false")));

        assertThat(policies.of("finance")).isEqualTo(new SkillPolicy(Set.of("org-reports"), false, false));
        assertThat(policies.of("analytics")).isEqualTo(new SkillPolicy(Set.of("openai-spreadsheets", "org-reports"), true, false));
    }

    @Test
    void shouldRefuseToStartWhenATeamWidensTheOrg() {
        assertThatThrownBy(() -> policies(with(Map.of("gateway.policy.teams.finance.skills.allowed[0]", "someone-elses"))))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.key()).isEqualTo("gateway.policy.teams.finance.skills.allowed");
                    assertThat(e.value()).isEqualTo("someone-elses");
                });
        assertThatThrownBy(() -> policies(with(Map.of("gateway.policy.teams.finance.skills.allow-inline", "true"))))
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.key()).isEqualTo("gateway.policy.teams.finance.skills.allow-inline"));
    }

    private static Map<String, String> with(Map<String, String> team) {
        Map<String, String> all = new java.util.HashMap<>(ORG);
        all.putAll(team);
        return all;
    }

    private static SkillPolicies policies(Map<String, String> properties) {
        return new SkillPolicies(new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("gateway.policy", PolicyProperties.class));
    }
}
