package com.sandboxgateway.audit;

import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * What one audit record costs a request: append latency on H2 and on the local PostgreSQL, alone and
 * with 8 concurrent writers (each append locks the chain head, so writers queue).
 *
 * <p>Run: {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt &&
 * java -cp target/classes:target/test-classes:$(cat target/cp.txt) com.sandboxgateway.audit.AuditWriteBenchmark}
 */
public final class AuditWriteBenchmark {

    private static final int WARMUP = 500;
    private static final int MEASURED = 2000;

    public static void main(String[] args) throws Exception {
        run("h2", AuditStores.h2());
        run("postgres", AuditStores.postgres("audit_benchmark", 5432));
    }

    private static void run(String name, DataSource dataSource) throws Exception {
        JdbcAuditStore store = AuditStores.store(dataSource);
        for (int i = 0; i < WARMUP; i++) {
            store.append(JdbcAuditStoreTest.execution(UUID.randomUUID().toString()));
        }
        long[] single = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            long start = System.nanoTime();
            store.append(JdbcAuditStoreTest.execution(UUID.randomUUID().toString()));
            single[i] = System.nanoTime() - start;
        }
        report(name + ", 1 writer", single);
        List<Long> concurrent = new ArrayList<>();
        try (ExecutorService writers = Executors.newFixedThreadPool(8)) {
            List<Future<long[]>> results = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                results.add(writers.submit(() -> {
                    long[] latencies = new long[MEASURED / 8];
                    for (int i = 0; i < latencies.length; i++) {
                        long start = System.nanoTime();
                        store.append(JdbcAuditStoreTest.execution(UUID.randomUUID().toString()));
                        latencies[i] = System.nanoTime() - start;
                    }
                    return latencies;
                }));
            }
            for (Future<long[]> result : results) {
                Arrays.stream(result.get()).forEach(concurrent::add);
            }
        }
        report(name + ", 8 writers", concurrent.stream().mapToLong(Long::longValue).toArray());
    }

    private static void report(String label, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%-22s p50 %6.2f ms   p99 %6.2f ms   (%d appends)%n", label, sorted[sorted.length / 2] / 1e6,
                sorted[(int) (sorted.length * 0.99)] / 1e6, sorted.length);
    }
}
