package com.sandboxgateway.upstream;

import java.net.URI;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.sandboxgateway.simulator.OfflineSimulator;

/**
 * Wires the upstream client to OpenAI, or to the bundled offline simulator when no OpenAI key is set,
 * so a fresh clone runs the whole flow without credentials.
 */
@Configuration(proxyBeanMethods = false)
class UpstreamConfiguration {

    private static final Logger log = LoggerFactory.getLogger(UpstreamConfiguration.class);
    private static final String SIMULATOR_KEY = "sk-simulator";

    @Bean(destroyMethod = "close")
    UpstreamClient upstreamClient(UpstreamProperties properties, SimulatorHolder simulator) {
        if (simulator.instance() == null) {
            log.info("Forwarding to {}", properties.baseUrl());
            return new UpstreamClient(properties.baseUrl(), properties.apiKey(), properties);
        }
        URI simulatorUrl = URI.create(simulator.instance().baseUrl());
        log.warn("No OpenAI key configured (gateway.upstream.api-key): forwarding to the offline simulator at {}",
                simulatorUrl);
        return new UpstreamClient(simulatorUrl, SIMULATOR_KEY, properties);
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
