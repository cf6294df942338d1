package com.sandboxgateway.proxy;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.sandboxgateway.budget.UnfetchedResponses;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.upstream.UpstreamClient;

import tools.jackson.databind.json.JsonMapper;

/** Schedules the {@link BackgroundResponseFetcher}'s passes when it is enabled. */
@Configuration(proxyBeanMethods = false)
class BackgroundResponsesConfiguration {

    private static final Logger log = LoggerFactory.getLogger(BackgroundResponsesConfiguration.class);

    @Bean
    BackgroundResponseFetcher backgroundResponseFetcher(UnfetchedResponses unfetched, PolicyChain chain,
                                                        UpstreamClient upstream, JsonMapper json, ProxyProperties proxy,
                                                        BackgroundResponsesProperties properties) {
        return new BackgroundResponseFetcher(unfetched, chain, upstream, json, proxy, properties);
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService backgroundResponsesSchedule(BackgroundResponseFetcher fetcher,
                                                         BackgroundResponsesProperties properties) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("background-responses").daemon().factory());
        if (properties.enabled()) {
            long every = properties.interval().toMillis();
            scheduler.scheduleWithFixedDelay(() -> {
                try {
                    fetcher.fetchDue();
                } catch (RuntimeException e) {
                    log.warn("Fetching background responses failed; the next pass retries", e);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        return scheduler;
    }
}
