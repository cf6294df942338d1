package com.sandboxgateway.tracing;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * Tracing is off unless {@code management.tracing.export.enabled} is true (application.yml sets it false):
 * then no span is recorded at all, rather than recorded and dropped, and audit records carry no trace id.
 * When on, Spring Boot's sampler applies ({@code management.tracing.sampling.probability}).
 */
@Configuration(proxyBeanMethods = false)
class TracingConfiguration {

    /** The one setting that turns tracing on or off; {@link RequestTracing} reads it too. */
    static final String ENABLED = "management.tracing.export.enabled";

    @Bean
    @ConditionalOnProperty(name = ENABLED, havingValue = "false")
    Sampler tracingOff() {
        return Sampler.alwaysOff();
    }
}
