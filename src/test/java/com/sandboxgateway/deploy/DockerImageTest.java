package com.sandboxgateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class DockerImageTest {

    private final String dockerfile = DeployFiles.text("Dockerfile");

    @Test
    void shouldRunAsAnUnprivilegedUser() {
        List<String> users = lines("USER ");
        assertThat(users).hasSize(1);
        assertThat(users.getFirst()).doesNotContain("root").doesNotMatch("USER 0(:.*)?");
    }

    @Test
    void shouldExposeTheApiAndManagementPorts() {
        assertThat(lines("EXPOSE ")).singleElement().asString()
                .contains(" " + DeployFiles.apiPort()).contains(" " + DeployFiles.managementPort());
    }

    @Test
    void shouldCheckLivenessOnTheManagementPort() {
        assertThat(dockerfile).containsPattern(Pattern.quote("HEALTHCHECK") + "[^\\n]*\\\\\\n[^\\n]*"
                + Pattern.quote("http://127.0.0.1:" + DeployFiles.managementPort() + "/actuator/health/liveness"));
    }

    @Test
    void shouldRunTheExtractedLayersWithTheLauncher() {
        assertThat(dockerfile).contains("-Djarmode=tools -jar application.jar extract --layers --launcher");
        assertThat(lines("COPY --from=build")).extracting(line -> line.split("/extracted/")[1].split("/")[0])
                .containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        assertThat(dockerfile).contains("ENTRYPOINT [\"java\", \"org.springframework.boot.loader.launch.JarLauncher\"]");
    }

    @Test
    void shouldSizeTheHeapFromTheContainerLimit() {
        assertThat(dockerfile).contains("-XX:MaxRAMPercentage=").contains("-XX:+ExitOnOutOfMemoryError");
    }

    @Test
    void shouldSendTheMavenProjectOnlyToTheBuild() {
        assertThat(DeployFiles.text(".dockerignore").lines().map(String::strip))
                .contains("*", "!mvnw", "!pom.xml", "!.mvn/", "!src/");
    }

    private List<String> lines(String prefix) {
        return dockerfile.lines().filter(line -> line.startsWith(prefix)).toList();
    }
}
