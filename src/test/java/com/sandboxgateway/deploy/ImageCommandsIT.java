package com.sandboxgateway.deploy;

import static com.sandboxgateway.deploy.DeployFiles.at;
import static com.sandboxgateway.deploy.DeployFiles.list;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.support.FreePort;

import tools.jackson.databind.json.JsonMapper;

/**
 * The image's commands, run for real on the packaged jar laid out as the Dockerfile lays it out (there is no Docker
 * engine here): the ahead-of-time cache's training run, the {@code ENTRYPOINT} on that cache, the
 * {@code HEALTHCHECK}, and the compose file's simulator entrypoint. Each command is read from its file, so a change
 * there is what runs here. Runs after {@code package} (failsafe), on the JDK of the build (25 in CI, as in the image).
 */
class ImageCommandsIT {

    private static final String DOCKERFILE = DeployFiles.text("Dockerfile");
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    /** What the image's {@code ENV} gives every {@code java} it runs. */
    private static final Map<String, String> IMAGE_ENVIRONMENT = Map.of("JDK_JAVA_OPTIONS", matching("ENV JDK_JAVA_OPTIONS=\"([^\"]+)\""));
    /** How the JVM reports a cache it could not use (a flag or class path other than the training run's). */
    private static final Pattern AOT_TROUBLE = Pattern.compile("\\[(error|warning) *]\\[aot]");

    @TempDir
    static Path image;
    private static Path app;

    /** The jar extracted and its layers copied in the order of the Dockerfile's {@code COPY} lines, into one folder. */
    @BeforeAll
    static void layOutTheImage() throws IOException {
        Path jar;
        try (Stream<Path> built = Files.list(DeployFiles.path("target"))) {
            jar = built.filter(path -> path.getFileName().toString().matches("sandbox-gateway-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no packaged jar in target/: run after `package`"));
        }
        Files.copy(jar, image.resolve("application.jar"));
        String extract = matching("java (-Djarmode=tools -jar application\\.jar extract [^\\n]+)");
        List<String> command = new ArrayList<>(List.of(JAVA.toString()));
        command.addAll(List.of(extract.split(" ")));
        succeed(image, command, Map.of(), Duration.ofMinutes(1));
        app = Files.createDirectory(image.resolve("app"));
        for (String layer : DOCKERFILE.lines().filter(line -> line.startsWith("COPY --from=build /build/extracted/"))
                .map(line -> line.split("/extracted/")[1].split("/")[0]).toList()) {
            copyTree(image.resolve("extracted").resolve(layer), app);
        }
    }

    @Test
    void shouldTrainTheCacheByServingAndStartOnIt() throws Exception {
        int port = FreePort.next();
        int managementPort = FreePort.next();
        // A build has no memory limit: as on a machine of 128 GB, where the image's heap percentage passes 32 GB.
        Map<String, String> training = Map.of("JDK_JAVA_OPTIONS", "-XX:MaxRAM=128g " + IMAGE_ENVIRONMENT.get("JDK_JAVA_OPTIONS"),
                "SERVER_PORT", Integer.toString(port), "MANAGEMENT_SERVER_PORT", Integer.toString(managementPort),
                "PATH", JAVA.getParent() + File.pathSeparator + System.getenv("PATH"));
        Path script = DeployFiles.path(matching("COPY (src/main/docker/aot-training\\.sh) "));
        String cache = matching("RUN sh /tmp/aot-training\\.sh (\\S+)");

        succeed(app, List.of("sh", script.toString(), cache), training, Duration.ofMinutes(5));

        try (Stream<Path> left = Files.list(app)) {
            assertThat(left.map(path -> path.getFileName().toString()))
                    .as("the training run leaves its cache and nothing else in the image")
                    .containsExactlyInAnyOrder("application.jar", "lib", cache);
        }
        List<String> entrypoint = new ArrayList<>(List.of(
                JsonMapper.builder().build().readValue(matching("ENTRYPOINT (\\[.*])"), String[].class)));
        entrypoint.set(0, JAVA.toString());
        entrypoint.addAll(List.of("--spring.profiles.active=dev", "--server.port=" + port, "--management.server.port=" + managementPort));
        Path log = image.resolve("gateway.log");
        Process gateway = start(app, entrypoint, IMAGE_ENVIRONMENT, log);
        try {
            awaitStatus(gateway, log, URI.create("http://127.0.0.1:" + port + "/v1/files"), "Bearer sk-gw-dev-alice");
            String healthcheck = matching("\\n\\s+CMD (curl [^\\n]+)").replace(":" + DeployFiles.managementPort() + "/", ":" + managementPort + "/");
            awaitHealthy(List.of("sh", "-c", healthcheck));
        } finally {
            gateway.destroy();
            gateway.waitFor(1, TimeUnit.MINUTES);
        }
        assertThat(Files.readString(log)).as("the gateway started on the trained cache").doesNotContainPattern(AOT_TROUBLE);
    }

    @Test
    void shouldStartTheComposeSimulatorFromTheImage() throws Exception {
        Map<String, Object> simulator = DeployFiles.map(at(DeployFiles.yaml("docker-compose.yml"), "services.openai-simulator"));
        List<String> entrypoint = new ArrayList<>(list(simulator.get("entrypoint")).stream().map(String::valueOf).toList());
        int port = FreePort.next();
        entrypoint.set(0, JAVA.toString());
        entrypoint.set(entrypoint.size() - 1, Integer.toString(port));
        Path log = image.resolve("simulator.log");
        Map<String, String> environment = new HashMap<>(IMAGE_ENVIRONMENT);
        environment.put("SIMULATOR_BIND", "127.0.0.1");
        Process process = start(app, entrypoint, environment, log);
        try {
            awaitStatus(process, log, URI.create("http://127.0.0.1:" + port + "/v1/files"), "Bearer sk-simulator");
        } finally {
            process.destroy();
            process.waitFor(1, TimeUnit.MINUTES);
        }
    }

    /** Group 1 of the first match of {@code regex} in the Dockerfile. */
    private static String matching(String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(DOCKERFILE);
        assertThat(matcher.find()).as("the Dockerfile has %s", regex).isTrue();
        return matcher.group(1);
    }

    private static Process start(Path directory, List<String> command, Map<String, String> environment, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("OPENAI_API_KEY");
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** Runs the command to its end; fails with its output unless it exits 0. */
    private static void succeed(Path directory, List<String> command, Map<String, String> environment, Duration limit)
            throws IOException {
        Path log = Files.createTempFile(image, "command", ".log");
        int exit = exitCode(directory, command, environment, limit, log);
        assertThat(exit).as("%s exited with its output: %s", command, tail(log)).isZero();
    }

    private static int exitCode(Path directory, List<String> command, Map<String, String> environment, Duration limit, Path log)
            throws IOException {
        Process process = start(directory, command, environment, log);
        try {
            if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + limit + ": " + tail(log));
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Docker's way: the check is run until it passes (the API may answer a moment before the health groups are up). */
    private static void awaitHealthy(List<String> check) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        Path log = Files.createTempFile(image, "healthcheck", ".log");
        while (exitCode(app, check, Map.of(), Duration.ofSeconds(30), log) != 0) {
            assertThat(Instant.now()).as("%s did not pass within a minute: %s", check, tail(log)).isBefore(deadline);
            Thread.sleep(200);
        }
    }

    private static void awaitStatus(Process process, Path log, URI uri, String authorization) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", authorization).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (true) {
                assertThat(process.isAlive()).as("it exited; its output: %s", tail(log)).isTrue();
                assertThat(Instant.now()).as("%s answered no 200 within 2 minutes: %s", uri, tail(log)).isBefore(deadline);
                try {
                    if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYetListening) {
                    // asked again below
                }
                Thread.sleep(100);
            }
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
