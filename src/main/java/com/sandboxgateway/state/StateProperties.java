package com.sandboxgateway.state;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where rate-limit buckets and budget counters live ({@code gateway.state}). Redis is reached with the
 * usual {@code spring.data.redis.*} connection properties.
 *
 * @param backend {@code memory} for one JVM, {@code redis} for replicas that must share one limit exactly
 * @param onFailure what a request gets when the state cannot be read or written in time: {@code deny}
 *        (503 {@code state_unavailable}) or {@code allow} (served unmetered, and said so in the logs)
 * @param timeout the longest one Redis call may take, connecting included; a decision never waits longer
 */
@ConfigurationProperties("gateway.state")
public record StateProperties(@DefaultValue("memory") Backend backend, @DefaultValue("deny") OnFailure onFailure,
                              @DefaultValue("250ms") Duration timeout) {

    public enum Backend { MEMORY, REDIS }

    public enum OnFailure { DENY, ALLOW }
}
