package com.sandboxgateway;

import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import com.sandboxgateway.audit.AuditVerifyCommand;

/** Sandbox Gateway: an OpenAI-compatible proxy that governs every use of Code Interpreter. */
/*
 * Spring's Redis auto-configuration stays off: the gateway opens its own bounded, lazy connections
 * (com.sandboxgateway.state), and only when gateway.state.backend is redis. So do the parts of the starters the
 * gateway never uses (resilience4j's rate limiters, retries, time limiters, timers and thread-pool bulkheads, Spring
 * Data's web support and repository metrics): 63 beans, and endpoints an operator could expose to find them empty.
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration",
        "org.springframework.boot.data.autoconfigure.web.DataWebAutoConfiguration",
        "org.springframework.boot.data.autoconfigure.metrics.DataRepositoryMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterAutoConfiguration",
        "io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterRefreshScopedRegistryAutoConfiguration",
        "io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimitersHealthIndicatorAutoConfiguration",
        "io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration",
        "io.github.resilience4j.springboot.retry.autoconfigure.RetryMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.retry.autoconfigure.RetryRefreshScopedRegistryAutoConfiguration",
        "io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration",
        "io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterRefreshScopedRegistryAutoConfiguration",
        "io.github.resilience4j.springboot.micrometer.autoconfigure.TimerAutoConfiguration",
        "io.github.resilience4j.springboot.bulkhead.autoconfigure.ThreadPoolBulkheadMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.scheduled.threadpool.autoconfigure.ContextAwareScheduledThreadPoolAutoConfiguration"})
@ConfigurationPropertiesScan
public class SandboxGatewayApplication {

    /** Runs the gateway, or with {@code audit-verify ...} the offline audit verifier (no server, no database). */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("audit-verify")) {
            System.exit(AuditVerifyCommand.run(List.of(args).subList(1, args.length), System.out));
        }
        SpringApplication.run(SandboxGatewayApplication.class, args);
    }
}
