package com.sandboxgateway;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.sandboxgateway.upstream.UpstreamProperties;

import io.micrometer.core.instrument.config.MeterFilter;

/** Applies the {@link MetricCatalogue} to every meter registry (Spring Boot picks up {@link MeterFilter} beans). */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    MeterFilter metricCatalogue(UpstreamProperties upstream) {
        return new MetricCatalogue(upstream.readTimeout());
    }
}
