package com.sandboxgateway.deploy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A command-line tool (helm, promtool) that checks deployment files for real. {@code .ci/run} installs
 * both, so in CI ({@code CI=true}) a missing tool fails the test; on a developer's machine without it the
 * test is skipped.
 */
record ExternalTool(Path executable) {

    /** The tool on the {@code PATH}; fails the calling test in CI and skips it elsewhere when it is not installed. */
    static ExternalTool require(String name) {
        Optional<Path> found = find(name);
        if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(name + " is not installed, but CI must run the checks that need it: .ci/run installs it");
        }
        assumeTrue(found.isPresent(), name + " is not installed: skipping the checks that run it (.ci/run installs it)");
        return new ExternalTool(found.get());
    }

    private static Optional<Path> find(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String directory : path.split(File.pathSeparator)) {
            Path candidate = Path.of(directory, name);
            if (!directory.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Runs the tool from the repository root and waits at most two minutes. */
    Result run(String... arguments) {
        List<String> command = new ArrayList<>(List.of(executable.toString()));
        command.addAll(List.of(arguments));
        try {
            Path errors = Files.createTempFile("tool-stderr", ".txt");
            try {
                Process process = new ProcessBuilder(command).directory(DeployFiles.ROOT.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectError(errors.toFile()).start();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(2, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not finish within 2 minutes");
                }
                return new Result(process.exitValue(), output, Files.readString(errors));
            } finally {
                Files.deleteIfExists(errors);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }

    record Result(int exitCode, String output, String errors) {

        Result assertSucceeded() {
            if (exitCode != 0) {
                throw new AssertionError("exit code " + exitCode + "\n" + output + errors);
            }
            return this;
        }
    }
}
