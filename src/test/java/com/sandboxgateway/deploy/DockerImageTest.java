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
    void shouldRunThePlainJarsOfTheExtractedLayers() {
        assertThat(dockerfile).contains("-Djarmode=tools -jar application.jar extract --layers --destination extracted")
                .doesNotContain("--launcher");
        assertThat(lines("COPY --from=build")).extracting(line -> line.split("/extracted/")[1].split("/")[0])
                .containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        assertThat(dockerfile).contains("ENTRYPOINT [\"java\", \"-XX:AOTCache=app.aot\", \"-jar\", \"application.jar\"]");
    }

    @Test
    void shouldTrainTheAheadOfTimeCacheOnTheRuntimeJdkWithTheRuntimeFlags() {
        List<String> stages = lines("FROM ");
        assertThat(stages).hasSize(2);
        assertThat(stages.getFirst()).contains("eclipse-temurin:25-jdk");
        assertThat(stages.getLast()).contains("eclipse-temurin:25-jre");
        List<String> all = dockerfile.lines().toList();
        int training = indexOf(all, "RUN sh /tmp/aot-training.sh app.aot");
        assertThat(training).as("the training run (ImageCommandsIT runs it) is after the flags and the jars, before the user change")
                .isGreaterThan(indexOf(all, "ENV JDK_JAVA_OPTIONS=")).isGreaterThan(indexOf(all, "COPY --from=build /build/extracted/application/"))
                .isLessThan(indexOf(all, "USER "));
    }

    @Test
    void shouldInstallCurlForTheCommandsThatCallTheGateway() {
        String runtime = dockerfile.substring(dockerfile.lastIndexOf("\nFROM "));
        assertThat(runtime).as("the JRE image has no curl; the HEALTHCHECK and the training run use it")
                .containsPattern("apt-get install -y --no-install-recommends curl");
    }

    @Test
    void shouldSizeTheHeapFromTheContainerLimit() {
        assertThat(dockerfile).contains("-XX:MaxRAMPercentage=").contains("-XX:+ExitOnOutOfMemoryError").contains("-XX:+UseSerialGC");
    }

    @Test
    void shouldSendTheMavenProjectOnlyToTheBuild() {
        assertThat(DeployFiles.text(".dockerignore").lines().map(String::strip))
                .contains("*", "!mvnw", "!pom.xml", "!.mvn/", "!src/");
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starts with " + prefix);
    }

    private List<String> lines(String prefix) {
        return dockerfile.lines().filter(line -> line.startsWith(prefix)).toList();
    }
}
