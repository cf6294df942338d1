package com.sandboxgateway.sanitize;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.review.InjectionDetector;
import com.sandboxgateway.review.InjectionRules;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.TextGuard;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * CPU time of {@link CsvSanitizer} alone on the benchmark's orders file, with the rules, scans and key of
 * {@code bench/sanitize/run.sh} (the {@code dev} profile's defaults), the file read from memory and the
 * output discarded, so neither the disk, the multipart reader nor the upstream is measured. Not a test:
 * run it on the test classpath,
 * <pre>
 * ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -Xmx256m -cp target/classes:target/test-classes:$(cat /tmp/cp.txt) \
 *   com.sandboxgateway.sanitize.CsvSanitizeBenchmark /tmp/sanitize-bench-data/orders_500000.csv [rounds]
 * </pre>
 * Each round sanitizes the whole file once; it prints every round's CPU seconds, of the sanitizing thread
 * and of the whole process (so the garbage collector's work counts too), and the best,
 * since other work on a shared machine only ever slows a round down (the first rounds warm the JIT).
 * With {@code NOGUARD=1} in the environment the secret and personal-data scan is left out, with
 * {@code NOINJ=1} the planted-instruction scan, to tell what each one costs.
 */
public final class CsvSanitizeBenchmark {

    private CsvSanitizeBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        byte[] csv = Files.readAllBytes(Path.of(args[0]));
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        Pseudonymizer pseudonymizer = new Pseudonymizer("dev-only-pseudonymization-key".getBytes(StandardCharsets.UTF_8));
        SanitizationRules rules = new SanitizationRules(Set.of("customer_ssn", "internal_notes"), Set.of("customer_id", "email"),
                true, null, Set.of());
        InjectionScreening screening = new InjectionScreening(InjectionDetector.fromRules(InjectionRules.standard()),
                PolicyProperties.InjectionAction.REPORT, new SimpleMeterRegistry());
        var threads = ManagementFactory.getThreadMXBean();
        var process = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double best = Double.MAX_VALUE;
        double bestProcess = Double.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            TextGuard guard = new TextGuard(SecretScanner.standard(), PolicyProperties.SecretsAction.BLOCK,
                    PolicyProperties.PiiAction.REPORT, pseudonymizer::pseudonym);
            long start = threads.getCurrentThreadCpuTime();
            long processStart = process.getProcessCpuTime();
            SanitizationReport report = new CsvSanitizer(',', rules, pseudonymizer.session(),
                    System.getenv("NOGUARD") != null ? null : guard, System.getenv("NOINJ") != null ? null : screening.forFile("bench"))
                    .sanitize(new ByteArrayInputStream(csv), OutputStream.nullOutputStream());
            double seconds = (threads.getCurrentThreadCpuTime() - start) / 1e9;
            double processSeconds = (process.getProcessCpuTime() - processStart) / 1e9;
            best = Math.min(best, seconds);
            bestProcess = Math.min(bestProcess, processSeconds);
            System.out.printf("round %d: %.3f CPU s (process, GC included: %.3f), %d rows%n", round + 1, seconds, processSeconds,
                    report.rows());
        }
        System.out.printf("best: %.3f CPU s (process: %.3f) for %.1f MB%n", best, bestProcess, csv.length / 1e6);
    }
}
