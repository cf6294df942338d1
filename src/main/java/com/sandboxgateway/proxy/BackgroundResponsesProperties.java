package com.sandboxgateway.proxy;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.Setting;

/**
 * The gateway's own fetches of the background responses nobody fetched finished ({@link BackgroundResponseFetcher}).
 *
 * @param enabled fetch them on this replica (every replica may: each response is taken by one at a time)
 * @param interval time between passes, and between two fetches of one response that is still running
 * @param maxAge how long after its creation a response is fetched at most; one still pending then is given up
 */
@ConfigurationProperties("gateway.background-responses")
record BackgroundResponsesProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1m") Duration interval,
                                     @DefaultValue("1d") Duration maxAge) {

    BackgroundResponsesProperties {
        Setting.positive(interval, "gateway.background-responses.interval",
                "Set the time between passes, e.g. 1m, or enabled: false.");
        Setting.positive(maxAge, "gateway.background-responses.max-age",
                "Set how long a background response is fetched at most, e.g. 1d.");
    }
}
