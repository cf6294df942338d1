package com.sandboxgateway.containers;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The reaper that deletes expired files and idle containers upstream.
 *
 * @param enabled run it on this replica (every replica may: they coordinate through the database)
 * @param interval time between passes
 */
@ConfigurationProperties("gateway.reaper")
record ReaperProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1m") Duration interval) {
}
