package com.sandboxgateway.admission;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.InvalidSettingException;

/**
 * How much work one replica takes on at once on {@code /v1}; the rest is shed with {@code 503 overloaded}
 * and a {@code Retry-After}, so an overloaded gateway answers fast instead of queueing without bound.
 *
 * @param enabled      {@code false} admits everything (as before this setting existed)
 * @param maxInFlight  requests this replica serves at once, streams included until their last byte
 * @param maxWaiting   requests that may wait for one of those places; more are shed at once
 * @param maxQueueWait how long a request waits for a place before it is shed
 * @param retryAfter   what {@code Retry-After} tells a shed client (whole seconds, at least 1)
 */
@ConfigurationProperties("gateway.overload")
public record OverloadProperties(@DefaultValue("true") boolean enabled, @DefaultValue("512") int maxInFlight,
                                 @DefaultValue("512") int maxWaiting, @DefaultValue("100ms") Duration maxQueueWait,
                                 @DefaultValue("1s") Duration retryAfter) {

    public OverloadProperties {
        if (maxInFlight < 1) {
            throw new InvalidSettingException("gateway.overload.max-in-flight", String.valueOf(maxInFlight),
                    "must be at least 1", "set how many requests one replica serves at once, or enabled: false to admit all");
        }
        if (maxWaiting < 0) {
            throw new InvalidSettingException("gateway.overload.max-waiting", String.valueOf(maxWaiting),
                    "must not be negative", "set 0 to shed every request that finds no free place");
        }
        if (maxQueueWait.isNegative()) {
            throw new InvalidSettingException("gateway.overload.max-queue-wait", maxQueueWait.toString(),
                    "must not be negative", "set how long a request may wait for a place, e.g. 100ms");
        }
        if (retryAfter.toSeconds() < 1) {
            throw new InvalidSettingException("gateway.overload.retry-after", retryAfter.toString(),
                    "must be at least 1s", "Retry-After counts whole seconds; set e.g. 1s");
        }
    }
}
