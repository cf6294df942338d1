package com.sandboxgateway.audit;

import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.policy.PolicyProperties;
import com.sandboxgateway.policy.TeamPolicies;
import com.sandboxgateway.review.CodeRiskAnalyzer;
import com.sandboxgateway.review.ReviewProperties;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import tools.jackson.databind.json.JsonMapper;

/** Wires the audit trail: database store, spool, and the background replay and retention. */
@Configuration(proxyBeanMethods = false)
class AuditConfiguration {

    @Bean
    JdbcAuditStore jdbcAuditStore(JdbcClient jdbc, TransactionTemplate transactions, JsonMapper json) {
        return new JdbcAuditStore(jdbc, transactions, new AuditChain(json));
    }

    /** Records name the trace of the request that made them, when it is recorded (tracing on and sampled). */
    @Bean
    SpoolingAuditLog auditLog(JdbcAuditStore store, AuditProperties properties, JsonMapper json, MeterRegistry meters,
                              Tracer tracer) throws IOException {
        return new SpoolingAuditLog(store, new AuditSpool(properties.spoolDir(), json), meters, () -> {
            Span span = tracer.currentSpan();
            return span != null && Boolean.TRUE.equals(span.context().sampled()) ? span.context().traceId() : null;
        });
    }

    @Bean
    SessionFailures sessionFailures(JdbcAuditStore store, JsonMapper json) {
        return new SessionFailures(store, json);
    }

    /** Audits executed code with its review flags; placed among the inspectors by the pipeline configuration. */
    @Bean
    CodeExecutionAuditor codeExecutionAuditor(SpoolingAuditLog auditLog, JdbcAuditStore store, SessionFailures failures,
                                              CodeRiskAnalyzer analyzer, TeamPolicies teams, ReviewProperties review,
                                              AuditProperties properties, MeterRegistry meters, JsonMapper json, Clock clock) {
        return new CodeExecutionAuditor(auditLog, store, new CodeReview(analyzer, teams, failures, review.failureStreak()),
                meters, json, clock, properties.maxOutputChars());
    }

    /** Stops runaway sessions; placed among the request steps by the pipeline configuration. */
    @Bean
    RunawaySessions runawaySessions(SessionFailures failures, PolicyProperties policy) {
        return new RunawaySessions(failures, policy.org().turns().stopAfterFailures());
    }

    /** Replays the spool at start and then regularly; applies retention hourly. */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService auditMaintenance(SpoolingAuditLog auditLog, JdbcAuditStore store, AuditProperties properties,
                                              Clock clock) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("audit-maintenance").daemon().factory());
        scheduler.scheduleWithFixedDelay(auditLog::replay, 0, properties.replayInterval().toMillis(), TimeUnit.MILLISECONDS);
        if (properties.retention() != null) {
            scheduler.scheduleWithFixedDelay(() -> store.deleteOlderThan(clock.instant().minus(properties.retention())),
                    1, 60, TimeUnit.MINUTES);
        }
        return scheduler;
    }
}
