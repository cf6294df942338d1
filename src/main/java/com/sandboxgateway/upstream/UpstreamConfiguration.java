package com.sandboxgateway.upstream;

import java.net.URI;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.sandboxgateway.simulator.OfflineSimulator;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.spring6.circuitbreaker.configure.CircuitBreakerConfigurationProperties;
import io.github.resilience4j.springboot.circuitbreaker.monitoring.health.CircuitBreakersHealthIndicator;

/**
 * Wires the upstream client to OpenAI, or to the bundled offline simulator when no OpenAI key is set,
 * so a fresh clone runs the whole flow without credentials. Breaker and team bulkheads come from the
 * resilience4j registries, so operators tune them with the usual {@code resilience4j.*} properties.
 */
@Configuration(proxyBeanMethods = false)
class UpstreamConfiguration {

    /** Name of the breaker in {@code resilience4j.circuitbreaker.instances}. */
    static final String BREAKER = "upstream";

    private static final Logger log = LoggerFactory.getLogger(UpstreamConfiguration.class);
    private static final String SIMULATOR_KEY = "sk-simulator";

    @Bean(destroyMethod = "close")
    UpstreamClient upstreamClient(UpstreamProperties properties, SimulatorHolder simulator,
                                  CircuitBreakerRegistry breakers, BulkheadRegistry bulkheads) {
        UpstreamTransport transport;
        if (simulator.instance() == null) {
            log.info("Forwarding to {}", properties.baseUrl());
            transport = new UpstreamTransport(properties.baseUrl(), properties.apiKey(), properties);
        } else {
            URI simulatorUrl = URI.create(simulator.instance().baseUrl());
            log.warn("No OpenAI key configured (gateway.upstream.api-key): forwarding to the offline simulator at {}",
                    simulatorUrl);
            transport = new UpstreamTransport(simulatorUrl, SIMULATOR_KEY, properties);
        }
        bulkheads.getConfiguration(UpstreamClient.TEAM_BULKHEAD_CONFIG).orElseThrow(() -> new IllegalStateException(
                "resilience4j.bulkhead.configs." + UpstreamClient.TEAM_BULKHEAD_CONFIG + " must be configured"));
        return new UpstreamClient(transport, breakers.circuitBreaker(BREAKER), bulkheads, new UpstreamRetry(properties.retry()));
    }

    /**
     * The breaker in health, as resilience4j's auto-configuration makes it (which this bean replaces, by its name), but
     * also where the health endpoint is not exposed: its status aggregator then does not exist, and the
     * auto-configuration's bean, which requires one, failed the start.
     */
    @Bean
    @ConditionalOnBooleanProperty("management.health.circuitbreakers.enabled")
    CircuitBreakersHealthIndicator circuitBreakersHealthIndicator(CircuitBreakerRegistry breakers,
                                                                  CircuitBreakerConfigurationProperties properties,
                                                                  ObjectProvider<StatusAggregator> aggregator) {
        return new CircuitBreakersHealthIndicator(breakers, properties, aggregator.getIfAvailable(StatusAggregator::getDefault));
    }

    @Bean(destroyMethod = "close")
    SimulatorHolder simulatorHolder(UpstreamProperties properties) {
        return new SimulatorHolder(properties.useSimulator() ? OfflineSimulator.start(0) : null);
    }

    /** Owns the simulator's lifecycle when one runs; it stops with the application context. */
    record SimulatorHolder(OfflineSimulator instance) implements AutoCloseable {
        @Override
        public void close() {
            if (instance != null) {
                instance.close();
            }
        }
    }
}
