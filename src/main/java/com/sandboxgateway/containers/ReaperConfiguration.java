package com.sandboxgateway.containers;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.upstream.UpstreamClient;

import tools.jackson.databind.json.JsonMapper;

/** Schedules the {@link Reaper} when it is enabled. */
@Configuration(proxyBeanMethods = false)
class ReaperConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ReaperConfiguration.class);

    @Bean
    Reaper reaper(OwnershipStore store, UpstreamClient upstream, TeamPolicies policies, JsonMapper json, Clock clock) {
        return new Reaper(store, upstream, policies, json, clock);
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService reaperSchedule(Reaper reaper, ReaperProperties properties) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("reaper").daemon().factory());
        if (properties.enabled()) {
            scheduler.scheduleWithFixedDelay(() -> {
                try {
                    reaper.reap();
                } catch (RuntimeException e) {
                    log.warn("Reaper pass failed; the next pass retries", e);
                }
            }, properties.interval().toMillis(), properties.interval().toMillis(), TimeUnit.MILLISECONDS);
        }
        return scheduler;
    }
}
