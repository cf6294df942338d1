package com.sandboxgateway.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import com.sandboxgateway.SandboxGatewayApplication;

/**
 * Every start-up error an operator can make gets Spring Boot's "APPLICATION FAILED TO START" block naming the
 * key, the value (never a secret's) and the fix, instead of a page of stack frames; a start without keys warns.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupMessagesTest {

    @Test
    void shouldNameTheKeyTheValueAndTheFixOfATeamPolicyThatWidensTheOrgs(CapturedOutput output) {
        failToStart("--gateway.policy.teams.finance.network.allowed-domains=evil.org");

        assertCleanReport(output, "gateway.policy.teams.finance.network.allowed-domains = 'evil.org'", "may only narrow");
    }

    @Test
    void shouldNameAMemoryTierThatDoesNotExist(CapturedOutput output) {
        failToStart("--gateway.policy.org.containers.allowed-memory-limits=1g,2g");

        assertCleanReport(output, "gateway.policy.org.containers.allowed-memory-limits = '2g'", "1g, 4g, 16g and 64g");
    }

    @Test
    void shouldNameTheKeyAndValueARecordOfSettingsRefusesAsItIsBound(CapturedOutput output) {
        failToStart("--gateway.upstream.connect-timeout=0s");

        assertCleanReport(output, "gateway.upstream.connect-timeout = 'PT0S'", "longer than zero", "e.g. 5s");
    }

    @Test
    void shouldNameTheShortPseudonymizationKeyWithoutShowingIt(CapturedOutput output) {
        failToStart("--gateway.policy.org.sanitization.pseudonymization-key=k3y-Zq81");

        assertCleanReport(output, "gateway.policy.org.sanitization.pseudonymization-key", "8 bytes long", "GATEWAY_PSEUDONYM_KEY");
        assertThat(output.getAll()).doesNotContain("k3y-Zq81");
    }

    @Test
    void shouldNameTheDatasourceUrlOfADatabaseThatCannotBeReached(CapturedOutput output) {
        failToStart("--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/test?password=s3cr3t-in-url",
                "--spring.datasource.username=gateway");

        assertCleanReport(output, "spring.datasource.url", "jdbc:postgresql://127.0.0.1:1/test", "SPRING_DATASOURCE_URL");
        assertThat(output.getAll()).doesNotContain("s3cr3t-in-url");
    }

    @Test
    void shouldRefuseAnEmbeddedDatabaseOtherProcessesCanReach(CapturedOutput output) {
        failToStart("--spring.datasource.url=jdbc:h2:file:./target/auto-server/gateway;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;AUTO_SERVER=TRUE");

        assertCleanReport(output, "spring.datasource.url", "AUTO_SERVER=TRUE", "PostgreSQL");
    }

    @Test
    void shouldWarnWhenTheGatewayStartsWithoutASingleKey(CapturedOutput output) {
        try (var gateway = new SpringApplicationBuilder(SandboxGatewayApplication.class).run("--server.port=0",
                "--management.server.port=0", "--spring.datasource.url=jdbc:h2:mem:no-keys;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE",
                "--gateway.audit.spool-dir=target/audit-spool/no-keys", "--gateway.reaper.enabled=false",
                "--gateway.upstream.api-key=sk-org-test", "--gateway.upstream.base-url=http://127.0.0.1:9",
                "--gateway.policy.org.sanitization.pseudonymization-key=test-pseudonymization-key-0001")) {
            assertThat(output.getAll()).contains("No gateway keys are configured (gateway.auth.keys is empty)");
        }
    }

    private static void failToStart(String... settings) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0"));
        arguments.addAll(List.of(settings));
        assertThatThrownBy(() -> new SpringApplicationBuilder(SandboxGatewayApplication.class).profiles("test")
                .run(arguments.toArray(String[]::new)).close()).isNotNull();
    }

    private static void assertCleanReport(CapturedOutput output, String... mentions) {
        String all = output.getAll();
        assertThat(all).contains("APPLICATION FAILED TO START", "Description:", "Action:").contains(mentions);
        String report = all.substring(all.indexOf("APPLICATION FAILED TO START"));
        assertThat(report.lines().filter(line -> line.startsWith("\tat "))).as("stack frames in the report").isEmpty();
        assertThat(report.lines().count()).as(report).isLessThan(20);
    }
}
