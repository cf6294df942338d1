package com.sandboxgateway.containers;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.Setting;

/**
 * The reaper that deletes expired files and idle containers upstream.
 *
 * @param enabled run it on this replica (every replica may: they coordinate through the database)
 * @param interval time between passes
 */
@ConfigurationProperties("gateway.reaper")
record ReaperProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1m") Duration interval) {

    ReaperProperties {
        Setting.positive(interval, "gateway.reaper.interval", "Set the time between passes, e.g. 1m, or enabled: false.");
    }
}
