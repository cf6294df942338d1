package com.sandboxgateway.skills;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static com.sandboxgateway.support.Exchanges.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.ownership.ObjectKind;
import com.sandboxgateway.ownership.Owners;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.FileSanitizers;
import com.sandboxgateway.support.PlantedSecrets;
import com.sandboxgateway.support.Policies;

class ContainerSkillsTest {

    private final List<Object> events = new ArrayList<>();
    private final Owners owners = Owners.none().owning(ALICE, "skill_alice", ObjectKind.SKILL);

    @Test
    void shouldSendAnInlineBundleOnAsItWasReadAndLetTheCallersOwnSkillThrough() {
        Exchange exchange = container("""
                {"type":"skill_reference","skill_id":"skill_alice"},{"type":"inline","name":"csv","description":"d",
                 "source":{"type":"base64","media_type":"application/zip","data":"%s"}}""".formatted(base64(SkillBundles.skill())));

        assertThat(step(Policies.of()).apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isTrue();
        byte[] sent = Base64.getDecoder().decode(exchange.json().path("skills").get(1).path("source").path("data").asString());
        assertThat(SkillBundles.entries(sent)).containsKeys("csv-insights/SKILL.md", "csv-insights/scripts/summarize.py");
    }

    @Test
    void shouldRefuseABundleHoldingACredentialNamingTheSkill() {
        Exchange exchange = container("""
                {"type":"inline","name":"csv","description":"d","source":{"type":"base64","media_type":"application/zip","data":"%s"}}"""
                .formatted(base64(SkillBundles.skill("csv-insights/.env", "GITHUB_TOKEN=" + PlantedSecrets.githubToken() + "\n"))));

        assertRefused(step(Policies.of()).apply(exchange), ErrorCode.SECRET_DETECTED, "skills[0].source.data", "skills[0]: ");
    }

    @Test
    void shouldRefuseSomeoneElsesSkillAsNotFoundAndInlineSkillsThePolicyForbids() {
        assertRefused(step(Policies.of()).apply(container("{\"type\":\"skill_reference\",\"skill_id\":\"skill_bob\"}")),
                ErrorCode.NOT_FOUND, "skills[0].skill_id", "skill_bob");
        assertRefused(step(Policies.of("org.skills.allow-inline=false")).apply(container("""
                {"type":"inline","name":"csv","description":"d","source":{"type":"base64","media_type":"application/zip","data":"UEs="}}""")),
                ErrorCode.TOOL_NOT_ALLOWED, "skills[0]", "allow-inline");
    }

    @Test
    void shouldRefuseASourceThatIsNotABase64Zip() {
        assertRefused(step(Policies.of()).apply(container("{\"type\":\"inline\",\"name\":\"csv\",\"description\":\"d\",\"source\":{}}")),
                ErrorCode.INVALID_REQUEST, "skills[0].source", "{\"type\": \"base64\"");
        assertRefused(step(Policies.of()).apply(container("""
                {"type":"inline","name":"csv","description":"d","source":{"type":"base64","media_type":"application/zip","data":"%s"}}"""
                .formatted(base64("just text\n".getBytes())))), ErrorCode.UNSUPPORTED_FILE_TYPE, "skills[0].source.data", "zip archive");
    }

    private static Exchange container(String skills) {
        return Exchanges.json(Route.CONTAINERS_CREATE, "{\"name\":\"c\",\"skills\":[" + skills + "]}");
    }

    private ContainerSkills step(PolicyProperties policy) {
        return new ContainerSkills(new SkillPolicies(policy), owners.ownership(), FileSanitizers.of(policy, events));
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
