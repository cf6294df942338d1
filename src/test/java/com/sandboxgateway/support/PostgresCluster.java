package com.sandboxgateway.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of a test's own, on its own port, made with Debian's {@code pg_createcluster}
 * (as {@code .ci/run} starts the shared one), so the test can stop it for real and start it again
 * without disturbing anyone else's. Trust authentication, listening on localhost (the default). Needs root (the commands
 * switch to the {@code postgres} user themselves), as in CI; without the tools or root the test is
 * skipped outside CI and fails in it.
 */
public final class PostgresCluster implements AutoCloseable {

    private final String version;
    private final String name;
    private final int port;

    private PostgresCluster(String version, String name, int port) {
        this.version = version;
        this.name = name;
        this.port = port;
    }

    /** A new running cluster, named after {@code purpose} and this JVM. */
    public static PostgresCluster create(String purpose) {
        String version = installedVersion();
        PostgresCluster cluster = new PostgresCluster(version, purpose + "_" + ProcessHandle.current().pid(), FreePort.next());
        run("pg_createcluster", version, cluster.name, "-p", String.valueOf(cluster.port),
                "-o", "max_connections=40", "--", "--auth=trust");
        cluster.start();
        return cluster;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public void start() {
        run("pg_ctlcluster", "--skip-systemctl-redirect", version, name, "start");
    }

    /** Stops it the way a crash would: no checkpoint, every connection cut; only what was committed survives. */
    public void crash() {
        run("pg_ctlcluster", "--skip-systemctl-redirect", version, name, "stop", "-m", "immediate");
    }

    @Override
    public void close() {
        run("pg_dropcluster", "--stop", version, name);
    }

    private static String installedVersion() {
        boolean root = "root".equals(System.getProperty("user.name"));
        Path clusters = Path.of("/etc/postgresql");
        boolean tools = Files.isDirectory(clusters) && Files.isExecutable(Path.of("/usr/bin/pg_createcluster"));
        if (!(root && tools) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("a PostgreSQL cluster of the test's own needs root and Debian's postgresql-common"
                    + " (pg_createcluster): .ci/run runs as root next to the shared cluster");
        }
        assumeTrue(root && tools, "needs root and pg_createcluster to run a PostgreSQL cluster of its own");
        try (Stream<Path> versions = Files.list(clusters)) {
            return versions.map(path -> path.getFileName().toString()).filter(v -> v.matches("\\d+"))
                    .max(Comparator.comparingInt(Integer::parseInt))
                    .orElseThrow(() -> new AssertionError("no PostgreSQL version under " + clusters));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(String... command) {
        try {
            Path output = Files.createTempFile("pg-cluster", ".txt");
            try {
                Process process = new ProcessBuilder(new ArrayList<>(List.of(command)))
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
                if (!process.waitFor(2, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not finish within 2 minutes");
                }
                if (process.exitValue() != 0) {
                    throw new AssertionError(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
                            + Files.readString(output, StandardCharsets.UTF_8));
                }
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
    }
}
