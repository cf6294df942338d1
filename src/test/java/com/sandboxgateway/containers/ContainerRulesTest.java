package com.sandboxgateway.containers;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.Policies;

class ContainerRulesTest {

    private final ContainerRules rules = new ContainerRules(new TeamPolicies(Policies.of("org.network.allowed-domains=pypi.org")));

    @Test
    void shouldLetAContainerWithinTheTeamsToolsTiersAndDomainsThroughUnchanged() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto","memory_limit":"4g",
                 "network_policy":{"type":"allowlist","allowed_domains":["pypi.org"]}}}]}""");

        assertThat(rules.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isFalse();
    }

    @Test
    void shouldRefuseAToolTheTeamMayNotUseNamingIt() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":"hi","tools":[{"type":"function","name":"f"},{"type":"web_search"}]}""");

        assertRefused(rules.apply(exchange), ErrorCode.TOOL_NOT_ALLOWED, "tools[1].type", "'web_search'");
    }

    @Test
    void shouldRefuseAMemoryTierAndADomainOutsideThePolicy() {
        assertRefused(rules.apply(Exchanges.json(Route.CONTAINERS_CREATE, """
                {"name":"c","memory_limit":"64g"}""")), ErrorCode.MEMORY_LIMIT_NOT_ALLOWED, "memory_limit", "'64g'");
        assertRefused(rules.apply(Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto",
                 "network_policy":{"type":"allowlist","allowed_domains":["evil.org"]}}}]}""")),
                ErrorCode.DOMAIN_NOT_ALLOWED, "tools[0].container.network_policy.allowed_domains", "'evil.org' (not in your team's allowlist)");
    }

    @Test
    void shouldRefuseAShellOnTheClientsMachineUnlessAllowed() {
        ContainerRules shellTeam = new ContainerRules(new TeamPolicies(Policies.of("org.tools.allowed=code_interpreter,shell")));

        assertRefused(shellTeam.apply(Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":"ls","tools":[{"type":"shell","environment":{"type":"local"}}]}""")),
                ErrorCode.TOOL_NOT_ALLOWED, "tools[0].environment.type", "shell-local");
    }

    @Test
    void shouldRefuseAContainerFileSentAsAnInputFile() {
        assertRefused(rules.apply(Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_file","file_id":"cfile_1"}]}]}""")),
                ErrorCode.CONTAINER_FILE_NOT_INPUT_FILE, "input[0].content[0].file_id", "cfile_1");
    }
}
