package com.sandboxgateway.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of a test's own, a child process on its own port without persistence, so the
 * test can kill it ({@code SIGKILL}: everything it held is gone) and start a fresh one on the same port.
 * Without {@code redis-server} the test is skipped outside CI and fails in it ({@code .ci/run} has it).
 */
public final class RedisServer implements AutoCloseable {

    private final Path executable;
    private final int port;
    private Process process;

    private RedisServer(Path executable, int port) {
        this.executable = executable;
        this.port = port;
    }

    /** A running server on a free port. */
    public static RedisServer start() {
        Path executable = Path.of("/usr/bin/redis-server");
        if (!Files.isExecutable(executable) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("redis-server is not installed, but CI must run the tests that restart it: .ci/run has it");
        }
        assumeTrue(Files.isExecutable(executable), "needs redis-server to run a Redis of its own");
        RedisServer server = new RedisServer(executable, FreePort.next());
        server.restart();
        return server;
    }

    public int port() {
        return port;
    }

    /** Kills the server the way a crash would: no save, every connection cut. */
    public void kill() {
        process.destroyForcibly();
        try {
            assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("redis-server is gone").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while killing redis-server", e);
        }
    }

    /** Starts an empty server on the same port and waits until it answers {@code PING}. */
    public void restart() {
        try {
            process = new ProcessBuilder(executable.toString(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--daemonize", "no")
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (!answersPing()) {
            assertThat(process.isAlive()).as("redis-server exited on port %d", port).isTrue();
            assertThat(Instant.now()).as("redis-server answered no PING within a minute").isBefore(deadline);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
    }

    private boolean answersPing() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] answer = new byte[5];
            return in.readNBytes(answer, 0, 5) == 5 && "+PONG".equals(new String(answer, StandardCharsets.US_ASCII));
        } catch (IOException notYet) {
            return false;
        }
    }
}
