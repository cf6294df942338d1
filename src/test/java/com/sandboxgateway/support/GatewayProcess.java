package com.sandboxgateway.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A gateway in a JVM of its own, started from the test's class path (the same {@code java}, the
 * {@code test} profile), so a test can {@link #kill()} it the way the kernel's OOM killer or a node
 * failure would: {@code SIGKILL}, no shutdown hook, no flush. Its output goes to a log file beside its
 * working directory.
 */
public final class GatewayProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final int managementPort;
    private final Path log;

    private GatewayProcess(Process process, int port, int managementPort, Path log) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
    }

    /**
     * Starts a gateway and waits until it is live.
     *
     * @param workDir its working directory (relative paths such as {@code ./data} land there)
     * @param settings Spring arguments, e.g. {@code --gateway.audit.spool-dir=/tmp/x}
     */
    public static GatewayProcess start(Path workDir, List<String> settings) {
        int port = FreePort.next();
        int managementPort = FreePort.next();
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command()
                        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "com.sandboxgateway.SandboxGatewayApplication", "--spring.profiles.active=test",
                "--server.port=" + port, "--management.server.port=" + managementPort));
        command.addAll(settings);
        try {
            Files.createDirectories(workDir);
            Path log = workDir.resolve("gateway-" + port + ".log");
            Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            GatewayProcess gateway = new GatewayProcess(process, port, managementPort, log);
            gateway.awaitLive();
            return gateway;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** {@code SIGKILL} (what {@link Process#destroyForcibly()} sends on Linux), then waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("the killed gateway is gone").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while killing the gateway", e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    private void awaitLive() {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        URI liveness = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/liveness");
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (true) {
                assertThat(process.isAlive()).as("the gateway exited during start-up; its log: %s", tail()).isTrue();
                assertThat(Instant.now()).as("the gateway was not live within 3 minutes; its log: %s", tail()).isBefore(deadline);
                try {
                    if (http.send(HttpRequest.newBuilder(liveness).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYetListening) {
                    // polled again below
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the gateway started", e);
        }
    }

    private String tail() {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
