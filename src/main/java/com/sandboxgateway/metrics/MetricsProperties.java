package com.sandboxgateway.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param perUser add a {@code user} tag to the request counter: one series per user, so only where users
 *        are few (Prometheus cost grows with every tag value)
 */
@ConfigurationProperties("gateway.metrics")
public record MetricsProperties(boolean perUser) {
}
