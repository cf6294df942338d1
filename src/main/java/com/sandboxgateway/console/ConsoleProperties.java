package com.sandboxgateway.console;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.Setting;

/**
 * The review console on the management port.
 *
 * @param sessionIdleTimeout a console session unused for this long ends; the reviewer logs in again
 * @param sessionMaxAge a console session ends this long after login however much it is used
 * @param queueScanLimit records a queue page reads at most while looking for flagged blocks; a page that
 *        stops there offers a "next" link from where it stopped
 */
@ConfigurationProperties("gateway.console")
public record ConsoleProperties(@DefaultValue("30m") Duration sessionIdleTimeout, @DefaultValue("12h") Duration sessionMaxAge,
                                @DefaultValue("5000") int queueScanLimit) {

    public ConsoleProperties {
        Setting.positive(sessionIdleTimeout, "gateway.console.session-idle-timeout",
                "Set how long an unused console session lasts, e.g. 30m.");
        Setting.positive(sessionMaxAge, "gateway.console.session-max-age", "Set how long a console session lasts at most, e.g. 12h.");
        Setting.atLeast(1, queueScanLimit, "gateway.console.queue-scan-limit",
                "Set how many records a queue page reads at most, e.g. 5000.");
    }
}
