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

import tools.jackson.databind.json.JsonMapper;

/** Wires the audit trail: database store, spool, and the background replay and retention. */
@Configuration(proxyBeanMethods = false)
class AuditConfiguration {

    @Bean
    JdbcAuditStore jdbcAuditStore(JdbcClient jdbc, TransactionTemplate transactions, JsonMapper json) {
        return new JdbcAuditStore(jdbc, transactions, new AuditChain(json));
    }

    @Bean
    SpoolingAuditLog auditLog(JdbcAuditStore store, AuditProperties properties, JsonMapper json) throws IOException {
        return new SpoolingAuditLog(store, new AuditSpool(properties.spoolDir(), json));
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
