package com.sandboxgateway.budget;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.ratelimit.RateLimiter;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.store.SqlDialect;

import io.lettuce.core.RedisURI;

/**
 * What the limit and budget checks add to one code-running request, on each backend: the admission (the
 * rate-limit take of the user and team buckets, the spend check and the turn reservation, in one call) before the
 * call and the settlement after it. The database is touched only to seed a counter the first time, as in service.
 *
 * <p>Run (Redis on 127.0.0.1:6379): {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt &&
 * java -cp target/classes:target/test-classes:$(cat target/cp.txt) com.sandboxgateway.budget.LimitCheckBenchmark}
 */
public final class LimitCheckBenchmark {

    private static final int WARMUP = 5_000;
    private static final int MEASURED = 20_000;
    private static final EffectivePolicy.Limits LIMITS =
            new EffectivePolicy.Limits(Integer.MAX_VALUE / 2, Integer.MAX_VALUE / 2, Integer.MAX_VALUE / 2, 1_000_000_000,
                    1_000_000_000, new BigDecimal("1000000"));

    public static void main(String[] args) throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:limits;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).load().migrate();
        BudgetStore store = BudgetStore.of(JdbcClient.create(h2), h2, SqlDialect.of(h2), Clock.systemUTC());
        TeamPolicies teams = new TeamPolicies(new Binder(new MapConfigurationPropertySource(Map.of(
                "gateway.policy.org.spend.max-usd-per-team-per-day", "1000000"))).bindOrCreate("gateway.policy", PolicyProperties.class));

        run("memory", new Budgets(new Counters.Local(Clock.systemUTC()), store, teams, Clock.systemUTC()));
        try (RedisState redis = new RedisState(RedisURI.create("redis://127.0.0.1:6379"), Duration.ofMillis(250))) {
            run("redis", new Budgets(new Counters.Redis(redis, Clock.systemUTC()), store, teams, Clock.systemUTC()));
        }
    }

    private static void run(String backend, Budgets budgets) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            check(budgets, "warmup-" + (i % 8));
        }
        long[] single = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            long start = System.nanoTime();
            check(budgets, "single");
            single[i] = System.nanoTime() - start;
        }
        report(backend + ", 1 thread", single);
        List<Long> concurrent = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String user = "user-" + t;
                results.add(threads.submit(() -> {
                    long[] latencies = new long[MEASURED / 8];
                    for (int i = 0; i < latencies.length; i++) {
                        long start = System.nanoTime();
                        check(budgets, user);
                        latencies[i] = System.nanoTime() - start;
                    }
                    return latencies;
                }));
            }
            for (Future<long[]> result : results) {
                Arrays.stream(result.get()).forEach(concurrent::add);
            }
        }
        report(backend + ", 8 threads", concurrent.stream().mapToLong(Long::longValue).toArray());
    }

    /** The checks of one request: take the tokens, check spend and reserve 3 turns (one admission), settle to 1. */
    private static void check(Budgets budgets, String user) {
        LocalDate day = LocalDate.now();
        Principal principal = new Principal(user, "bench", Set.of(), null, null);
        List<Counter> turns = budgets.turnCounters(user, "session-" + user, day, LIMITS);
        budgets.counters().admit(new Counters.Ask(RateLimiter.bucketsOf(principal, LIMITS), budgets.spendCounter("bench", day),
                turns, 3));
        budgets.counters().add(turns, -2);
    }

    private static void report(String name, long[] nanos) {
        Arrays.sort(nanos);
        System.out.printf("%-20s p50 %7.3f ms   p99 %7.3f ms   p99.9 %7.3f ms%n", name, nanos[nanos.length / 2] / 1e6,
                nanos[(int) (nanos.length * 0.99)] / 1e6, nanos[(int) (nanos.length * 0.999)] / 1e6);
    }
}
