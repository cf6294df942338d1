package com.sandboxgateway.skills;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static com.sandboxgateway.support.Exchanges.END;
import static com.sandboxgateway.support.Exchanges.part;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.FileSanitizers;
import com.sandboxgateway.support.PlantedSecrets;
import com.sandboxgateway.support.Policies;

class SkillUploadsTest {

    private static final String SCRIPT = "print('hello')\n";

    @TempDir
    Path spool;

    private final List<Object> events = new ArrayList<>();

    @Test
    void shouldReadEveryFileOfADirectoryUploadIntoTheSpool() throws IOException {
        Exchange exchange = upload(part("files", "csv-insights/SKILL.md", SkillBundles.SKILL_MD)
                + part("files", "csv-insights/scripts/hello.py", SCRIPT));

        assertThat(step(Policies.of()).apply(exchange)).isEqualTo(Decision.PROCEED);
        String sent = new String(((RequestBody.Multipart) exchange.body()).upload().body().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sent).contains("name: csv-insights").contains(SCRIPT);
    }

    @Test
    void shouldRefuseAFileHoldingACredentialNamingThePart() {
        Exchange exchange = upload(part("files", "csv-insights/SKILL.md", SkillBundles.SKILL_MD)
                + part("files", "csv-insights/scripts/clone.py", "TOKEN = '" + PlantedSecrets.githubToken() + "'\n"));

        assertRefused(step(Policies.of()).apply(exchange), ErrorCode.SECRET_DETECTED, "files", "");
    }

    @Test
    void shouldRefuseANameOutsideTheSkillAndAPartWithoutAName() {
        assertRefused(step(Policies.of()).apply(upload(part("files", "../SKILL.md", SkillBundles.SKILL_MD))), ErrorCode.INVALID_FILE,
                "files", "'../SKILL.md' points outside");
        assertRefused(step(Policies.of()).apply(upload(part("files", null, SCRIPT))), ErrorCode.UNSUPPORTED_FILE_TYPE, "files",
                "has no filename");
    }

    @Test
    void shouldRefuseAnyUploadWhereThePolicyAllowsNoUploadedSkills() {
        assertRefused(step(Policies.of("org.skills.allow-uploaded=false")).apply(upload(part("files", "a/SKILL.md", SkillBundles.SKILL_MD))),
                ErrorCode.TOOL_NOT_ALLOWED, null, "allow-uploaded");
    }

    private Exchange upload(String parts) {
        return Exchanges.multipart(Route.SKILLS_CREATE, parts + END, null, spool);
    }

    private SkillUploads step(PolicyProperties policy) {
        return new SkillUploads(new SkillPolicies(policy), FileSanitizers.of(policy, events));
    }
}
