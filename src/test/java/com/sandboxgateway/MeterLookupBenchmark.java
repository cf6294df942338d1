package com.sandboxgateway;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

import com.sandboxgateway.metrics.MeterFamily;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What finding a request's meters costs: built per request (a builder, its tags sorted, the registry's
 * look-up) against a {@link MeterFamily} look-up. The registry is a composite of two, with the
 * {@link MetricCatalogue} filter, as the gateway runs it (Prometheus and OTLP).
 *
 * <p>Run: {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt &&
 * java -cp target/classes:target/test-classes:$(cat target/cp.txt) com.sandboxgateway.MeterLookupBenchmark}
 */
public final class MeterLookupBenchmark {

    private static final int ROUNDS = 200_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        CompositeMeterRegistry registry = new CompositeMeterRegistry();
        registry.config().meterFilter(new MetricCatalogue(Duration.ofMinutes(30)));
        registry.add(new SimpleMeterRegistry());
        registry.add(new SimpleMeterRegistry());
        MeterFamily<Counter> requests = MeterFamily.counters(registry, "gateway.requests", "Requests answered on /v1",
                "route", "team", "status");
        MeterFamily<Timer> latency = MeterFamily.histogramTimers(registry, "gateway.upstream.latency",
                "Time until the upstream's answer began", "route");
        for (int pass = 0; pass < 3; pass++) {
            measure("built per request", () -> {
                Counter.builder("gateway.requests").description("Requests answered on /v1").tag("route", "responses_create")
                        .tag("team", "analytics").tag("status", "200").register(registry).increment();
                Timer.builder("gateway.upstream.latency").description("Time until the upstream's answer began")
                        .tag("route", "responses_create").publishPercentileHistogram().register(registry)
                        .record(Duration.ofMillis(3));
            });
            measure("MeterFamily look-up", () -> {
                requests.with("responses_create", "analytics", "200").increment();
                latency.with("responses_create").record(Duration.ofMillis(3));
            });
        }
    }

    private static void measure(String name, Runnable request) {
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < ROUNDS; i++) {
            request.run();
        }
        System.out.printf("%-22s %6.2f µs CPU per request (a counter and a timer)%n", name,
                (THREADS.getCurrentThreadCpuTime() - start) / 1e3 / ROUNDS);
    }
}
