package com.sandboxgateway.review;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cost of the static look at one executed code block, as the audit pays it for every block: the
 * standard {@link CodeRiskAnalyzer} over the code corpora in {@code src/test/resources/review/code}
 * (realistic benign notebook cells and risky blocks), each block analysed as a whole, the block every answer
 * of the proxy benchmark carries ({@code bench/proxy/answer.json}), and all benign blocks joined into one and a
 * crafted one-line block (to see the cost grow with the size of a block, not faster). Not a test: run it on
 * the test classpath,
 * <pre>
 * ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp target/classes:target/test-classes:$(cat /tmp/cp.txt) com.sandboxgateway.review.CodeReviewBenchmark [seconds]
 * </pre>
 * After a warm-up it makes three passes of about {@code seconds} (default 5) each and reports the best,
 * in microseconds per block of wall time and of CPU time of the analysing thread, and per KB of code, with the
 * bytes the analysing thread allocated per block.
 */
public final class CodeReviewBenchmark {

    /** The code of the one code-interpreter call in {@code bench/proxy/answer.json}. */
    private static final String PROXY_BENCH_BLOCK = """
            import pandas as pd
            import matplotlib.pyplot as plt

            df = pd.read_csv("/mnt/data/data.csv")
            print(df.shape)
            print(df.describe())
            monthly = df.groupby("month")["revenue"].sum()
            ax = monthly.plot(kind="bar", title="Revenue by month")
            ax.set_ylabel("revenue")
            plt.tight_layout()
            plt.savefig("/mnt/data/plot.png")
            print(monthly.to_string())""";

    private CodeReviewBenchmark() {
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        CodeRiskAnalyzer analyzer = CodeRiskAnalyzer.fromRules(CodeRules.standard());
        HostPolicy hosts = HostPolicy.allowing("pypi.org"::equals);
        System.out.printf("%d cores; %s%n", Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"));
        report("benign blocks", blocks("code/benign"), analyzer, hosts, seconds);
        report("risky blocks", blocks("code/risky"), analyzer, hosts, seconds);
        report("proxy bench", List.of(PROXY_BENCH_BLOCK), analyzer, hosts, seconds);
        report("one big block", List.of(String.join("\n", blocks("code/benign"))), analyzer, hosts, seconds);
        report("crafted line", List.of(craftedLine()), analyzer, hosts, seconds);
    }

    /** One logical line of about 40 KB made to cost: the same code run by exec 1,000 times, comprehensions, chained assignments. */
    private static String craftedLine() {
        return "code = 'import os; print(os.environ)'; " + "exec(code); ".repeat(1_000)
                + "[f.write(x) for _ in range(10**9)]; ".repeat(300) + "a = ".repeat(1_000) + "exec; "
                + "(n := len(x), " + "m := n, ".repeat(500) + "0)";
    }

    private static List<String> blocks(String directory) {
        List<String> blocks = new ArrayList<>();
        for (Path file : ReviewCorpus.pythonFiles(directory)) {
            blocks.add(ReviewCorpus.read(file));
        }
        return blocks;
    }

    private static void report(String name, List<String> blocks, CodeRiskAnalyzer analyzer, HostPolicy hosts, double seconds) {
        long chars = blocks.stream().mapToLong(String::length).sum();
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long passes = Math.max(1, passesIn(seconds / 2, blocks, analyzer, hosts));
        double bestWall = Double.MAX_VALUE;
        double bestCpu = Double.MAX_VALUE;
        double bestBytes = Double.MAX_VALUE;
        long flags = 0;
        for (int run = 0; run < 3; run++) {
            long bytesStart = threads.getCurrentThreadAllocatedBytes();
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            for (long pass = 0; pass < passes; pass++) {
                flags = analyzeAll(blocks, analyzer, hosts);
            }
            double analysed = (double) passes * blocks.size();
            bestWall = Math.min(bestWall, (System.nanoTime() - start) / 1e3 / analysed);
            bestCpu = Math.min(bestCpu, (threads.getCurrentThreadCpuTime() - cpuStart) / 1e3 / analysed);
            bestBytes = Math.min(bestBytes, (threads.getCurrentThreadAllocatedBytes() - bytesStart) / analysed);
        }
        double kb = chars / 1024.0 / blocks.size();
        System.out.printf("%-13s %3d blocks (avg %4.0f chars, %d flags): %7.1f µs/block wall, %7.1f µs/block CPU, %6.1f µs/KB CPU,"
                + " %7.1f KB/block allocated%n", name, blocks.size(), (double) chars / blocks.size(), flags, bestWall, bestCpu,
                bestCpu / kb, bestBytes / 1024);
    }

    /** Warms up for about {@code seconds} and returns how many passes over the blocks fit in that time. */
    private static long passesIn(double seconds, List<String> blocks, CodeRiskAnalyzer analyzer, HostPolicy hosts) {
        long passes = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            analyzeAll(blocks, analyzer, hosts);
            passes++;
        }
        return passes;
    }

    private static long analyzeAll(List<String> blocks, CodeRiskAnalyzer analyzer, HostPolicy hosts) {
        long flags = 0;
        for (String block : blocks) {
            flags += analyzer.analyze(block, hosts).size();
        }
        return flags;
    }
}
