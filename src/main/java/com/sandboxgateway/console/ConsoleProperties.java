package com.sandboxgateway.console;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

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
}
