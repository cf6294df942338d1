package com.sandboxgateway.audit;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.StringUtils;

import com.sandboxgateway.budget.SessionFailures;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.review.CodeRiskAnalyzer;
import com.sandboxgateway.review.ReviewProperties;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.store.H2Maps;
import com.sandboxgateway.store.SqlDialect;
import com.sandboxgateway.upstream.NotePublisher;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import tools.jackson.databind.json.JsonMapper;

/** Wires the audit trail: database store and tree, spool, checkpoints, and the background replay, signing and retention. */
@Configuration(proxyBeanMethods = false)
class AuditConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AuditConfiguration.class);

    /**
     * The audit trail in the file's maps where the database is an H2 embedded in this JVM (the default), which first take
     * in the rows an earlier version left in the tables; in tables on any other (PostgreSQL, H2 over TCP).
     */
    @Bean
    AuditStore auditChainStore(DataSource dataSource, JdbcClient jdbc, TransactionTemplate transactions, GroupCommit commits,
                               SqlDialect dialect, JsonMapper json) {
        AuditChain chain = new AuditChain(json);
        return H2Maps.of(dataSource, EmbeddedAuditStore.Maps::open)
                .<AuditStore>map(maps -> new EmbeddedAuditStore(maps, chain).movedFrom(jdbc))
                .orElseGet(() -> new JdbcAuditStore(jdbc, transactions, commits, dialect, chain, new JdbcAuditTree(jdbc)));
    }

    @Bean
    AuditTree auditTree(AuditStore store) {
        return store.tree();
    }

    /** Signed checkpoints and their witnesses; only with a signing key, which must then be valid or the gateway does not start. */
    @Bean
    @Conditional(SigningKeySet.class)
    Checkpoints checkpoints(AuditTree tree, SpoolingAuditLog auditLog, AuditProperties properties, JsonMapper json,
                            Clock clock, MeterRegistry meters) {
        List<CheckpointWitness> witnesses = new ArrayList<>();
        AuditProperties.Witness witness = properties.witness();
        if (witness.file() != null) {
            witnesses.add(CheckpointWitness.file(witness.file()));
        }
        if (!witness.urls().isEmpty()) {
            NotePublisher publisher = new NotePublisher(witness.timeout());
            for (URI url : witness.urls()) {
                witnesses.add(new HttpWitness(url, publisher));
            }
        }
        return new Checkpoints(tree, auditLog, Checkpoints.signer(properties), witnesses, json, clock, meters);
    }

    /** Records name the trace of the request that made them, when it is recorded (tracing on and sampled). */
    @Bean
    SpoolingAuditLog auditLog(AuditStore store, AuditProperties properties, JsonMapper json, MeterRegistry meters,
                              Tracer tracer) throws IOException {
        return new SpoolingAuditLog(store, new AuditSpool(properties.spoolDir(), json), meters, () -> {
            Span span = tracer.currentSpan();
            return span != null && Boolean.TRUE.equals(span.context().sampled()) ? span.context().traceId() : null;
        });
    }

    /** A session's failed code blocks in a row, as the audit trail keeps them; read by the review and the budgets. */
    @Bean
    SessionFailures sessionFailures(AuditStore store, JsonMapper json) {
        return new SessionFailures(store::latestCodeDetails, json);
    }

    /** Audits executed code with its review flags; placed among the inspectors by the pipeline configuration. */
    @Bean
    CodeExecutionAuditor codeExecutionAuditor(SpoolingAuditLog auditLog, AuditStore store, SessionFailures failures,
                                              CodeRiskAnalyzer analyzer, TeamPolicies teams, ReviewProperties review,
                                              AuditProperties properties, MeterRegistry meters, JsonMapper json, Clock clock) {
        return new CodeExecutionAuditor(auditLog, store, new CodeReview(analyzer, teams, failures, review.failureStreak()),
                meters, json, clock, properties.maxOutputChars());
    }

    /**
     * Makes leaves of records older than the tree, replays the spool at start and then regularly, signs
     * checkpoints every {@code checkpoint-interval}; applies retention hourly.
     */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService auditMaintenance(SpoolingAuditLog auditLog, AuditStore store, AuditProperties properties,
                                              Clock clock, ObjectProvider<Checkpoints> checkpoints) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("audit-maintenance").daemon().factory());
        scheduler.execute(() -> catchUpTree(store));
        checkpoints.ifAvailable(signer -> scheduler.scheduleWithFixedDelay(signer::signIfGrown,
                properties.checkpointInterval().toMillis(), properties.checkpointInterval().toMillis(), TimeUnit.MILLISECONDS));
        scheduler.scheduleWithFixedDelay(auditLog::replay, 0, properties.replayInterval().toMillis(), TimeUnit.MILLISECONDS);
        if (properties.retention() != null) {
            scheduler.scheduleWithFixedDelay(() -> store.deleteOlderThan(clock.instant().minus(properties.retention())),
                    1, 60, TimeUnit.MINUTES);
        }
        return scheduler;
    }

    private static void catchUpTree(AuditStore store) {
        try {
            long added = store.catchUpTree();
            if (added > 0) {
                log.info("{} audit records written before the audit tree existed are now its first leaves", added);
            }
        } catch (RuntimeException e) {
            log.error("Cannot bring the audit tree up to the chain; appends will try again", e);
        }
    }

    /** A witness that gets each checkpoint as a POST; named without the URL's user info or query, which may hold credentials. */
    private record HttpWitness(URI url, NotePublisher publisher) implements CheckpointWitness {

        @Override
        public String name() {
            return "http " + url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort()) + url.getPath();
        }

        @Override
        public void publish(String note) throws IOException {
            publisher.post(url, note);
        }
    }

    /** Whether {@code gateway.audit.signing-key} is set (blank counts as unset). */
    static final class SigningKeySet implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return StringUtils.hasText(context.getEnvironment().getProperty("gateway.audit.signing-key"));
        }
    }
}
