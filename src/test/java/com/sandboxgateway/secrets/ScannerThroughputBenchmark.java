package com.sandboxgateway.secrets;

import java.util.List;

/**
 * Throughput of the standard scanner on about 100 MB of mixed text (prose, CSV rows, code, JSON lines
 * and a secret every few kilobytes), built in memory so that no disk is measured. Not a test: run it
 * on the test classpath,
 * <pre>
 * ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp target/classes:target/test-classes:$(cat /tmp/cp.txt) com.sandboxgateway.secrets.ScannerThroughputBenchmark
 * </pre>
 * It prints MB/s (1 MB = 2<sup>20</sup> characters, all ASCII here, so also bytes) for three ways of
 * calling the scanner: line by line, CSV cell by cell (what the CSV sanitizer does), and in 64 KB
 * chunks through a {@link StreamingScan} (opaque text files). Each mode runs a warm-up pass and then
 * three measured passes, and reports the best, since other work on a shared machine only ever slows a
 * pass down; it reports MB per second of wall time and per second of the scanning thread's CPU time,
 * which other processes competing for the cores disturb much less.
 */
public final class ScannerThroughputBenchmark {

    private static final int TARGET_CHARS = 100 << 20;
    private static final int CHUNK = 64 * 1024;
    private static final double MB = 1 << 20;

    private ScannerThroughputBenchmark() {
    }

    public static void main(String[] args) {
        String text = mixedText(args.length > 0 ? Integer.parseInt(args[0]) << 20 : TARGET_CHARS);
        SecretScanner scanner = SecretScanner.standard();
        System.out.printf("corpus: %.1f MB, %d lines; %d cores; %s%n", text.length() / MB, text.lines().count(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"));
        report("lines", text, () -> byLines(scanner, text));
        report("csv cells", text, () -> byCells(scanner, text));
        report("64 KB chunks", text, () -> byChunks(scanner, text));
    }

    private static void report(String mode, String text, java.util.function.LongSupplier pass) {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long findings = pass.getAsLong();
        double bestWall = 0;
        double bestCpu = 0;
        for (int run = 0; run < 3; run++) {
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            findings = pass.getAsLong();
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
            bestWall = Math.max(bestWall, text.length() / MB / seconds);
            bestCpu = Math.max(bestCpu, text.length() / MB / cpuSeconds);
        }
        System.out.printf("%-13s %7.1f MB/s wall, %7.1f MB per CPU-second  (%d findings)%n", mode, bestWall, bestCpu, findings);
    }

    private static long byLines(SecretScanner scanner, String text) {
        long findings = 0;
        for (int start = 0; start < text.length(); ) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            findings += scanner.scan(text.substring(start, end)).size();
            start = end + 1;
        }
        return findings;
    }

    /** Every line split at commas, each piece scanned alone: the CSV sanitizer hands the scanner one cell at a time. */
    private static long byCells(SecretScanner scanner, String text) {
        long findings = 0;
        int cellStart = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == ',' || text.charAt(i) == '\n') {
                if (i > cellStart) {
                    findings += scanner.scan(text.substring(cellStart, i)).size();
                }
                cellStart = i + 1;
            }
        }
        return findings;
    }

    private static long byChunks(SecretScanner scanner, String text) {
        StreamingScan scan = scanner.streaming();
        long findings = 0;
        for (int start = 0; start < text.length(); start += CHUNK) {
            findings += scan.feed(text.substring(start, Math.min(text.length(), start + CHUNK))).size();
        }
        return findings + scan.finish().size();
    }

    /** Blocks of prose, CSV, code and JSON lines in turn, with a fake secret or piece of personal data in some lines. */
    static String mixedText(int targetChars) {
        FakeSecrets fake = new FakeSecrets(42);
        StringBuilder text = new StringBuilder(targetChars + 4096);
        List<String> prose = List.of(
                "The quarterly report shows revenue grew 12.5% year over year, driven by the new subscription tiers.",
                "Please review the attached draft before Friday; comments on sections 2 and 4 are the most urgent.",
                "Tokens are the units a model reads: max_tokens limits the reply, not the prompt.",
                "Our support team answers within 24 hours on business days, and within 72 hours on weekends.",
                "Shipping to the EU takes 3-5 days; customs fees may apply for orders above 150 EUR.");
        List<String> code = List.of(
                "def load(path: str) -> dict:", "    with open(path, encoding=\"utf-8\") as f:",
                "        return json.load(f)", "SELECT id, total, created_at FROM orders WHERE total > 100.00 ORDER BY created_at;",
                "for (int i = 0; i < items.size(); i++) { sum += items.get(i).price(); }",
                "const headers = { 'Content-Type': 'application/json', Accept: 'text/csv' };",
                "logger.info(\"processed {} rows in {} ms\", rows, elapsed);");
        int line = 0;
        while (text.length() < targetChars) {
            switch ((line / 50) % 4) {
                case 0 -> text.append(prose.get(line % prose.size()));
                case 1 -> text.append(10_000 + line).append(",C-").append(100_000 + line % 9_973).append(",2024-0")
                        .append(1 + line % 9).append("-1").append(line % 10).append(',').append(line % 997).append('.')
                        .append(line % 100).append(",EUR,").append(line % 3 == 0 ? "paid" : "open").append(",Jane Roe,Berlin");
                case 2 -> text.append(code.get(line % code.size()));
                default -> text.append("{\"id\": ").append(line).append(", \"status\": \"ok\", \"amount\": ").append(line % 5_000)
                        .append(".25, \"note\": \"delivered to the front desk\"}");
            }
            if (line % 40 == 0) {
                text.append(switch ((line / 40) % 6) {
                    case 0 -> " token " + fake.gitHubToken();
                    case 1 -> ",contact " + fake.email();
                    case 2 -> " password=" + fake.password();
                    case 3 -> ",card " + fake.cardNumber("4", 16);
                    case 4 -> " Authorization: Bearer " + fake.jwt();
                    default -> " key " + fake.openAiProjectKey();
                });
            }
            text.append('\n');
            line++;
        }
        return text.toString();
    }
}
