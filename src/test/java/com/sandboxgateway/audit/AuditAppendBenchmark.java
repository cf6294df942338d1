package com.sandboxgateway.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

/**
 * One replica's share of the audit append benchmark ({@code bench/audit/run.sh} starts one or two of
 * these processes against one PostgreSQL schema): {@code writers} threads append records back to back
 * for {@code seconds}, starting at the wall-clock instant {@code startAtMillis} so that replicas
 * overlap; prints one line with the replica's throughput, latency percentiles and the CPU time its JVM
 * spent per append (which, unlike the rest, hardly depends on other load on the machine).
 *
 * <p>{@code prepare <schema>} drops, creates and migrates the schema first.
 */
public final class AuditAppendBenchmark {

    private AuditAppendBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("prepare")) {
            AuditStores.postgres(args[1], 5432);
            return;
        }
        String schema = args[0];
        int writers = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        long startAt = Long.parseLong(args[3]);
        String label = args[4];
        JdbcAuditStore store = AuditStores.store(AuditStores.existingPostgres(schema, writers));
        for (int i = 0; i < 200; i++) {
            store.append(JdbcAuditStoreTest.execution(UUID.randomUUID().toString()));
        }
        Thread.sleep(Math.max(0, startAt - System.currentTimeMillis()));
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Future<long[]>> results = new ArrayList<>();
        long cpuBefore = cpuNanos();
        long began = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            for (int w = 0; w < writers; w++) {
                results.add(pool.submit(() -> appendUntil(store, end)));
            }
        }
        double elapsed = (System.nanoTime() - began) / 1e9;
        long cpu = cpuNanos() - cpuBefore;
        long[] all = results.stream().map(AuditAppendBenchmark::join).flatMapToLong(Arrays::stream).sorted().toArray();
        System.out.printf("%s\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%.0f%n", label, all.length, all.length / elapsed,
                all[all.length / 2] / 1e6, all[(int) (all.length * 0.99)] / 1e6, all[all.length - 1] / 1e6,
                cpu / 1e3 / all.length);
    }

    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static long[] appendUntil(JdbcAuditStore store, long end) {
        long[] latencies = new long[1 << 16];
        int n = 0;
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            store.append(JdbcAuditStoreTest.execution(UUID.randomUUID().toString()));
            if (n == latencies.length) {
                latencies = Arrays.copyOf(latencies, n * 2);
            }
            latencies[n++] = System.nanoTime() - start;
        }
        return Arrays.copyOf(latencies, n);
    }

    private static long[] join(Future<long[]> result) {
        try {
            return result.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
