package com.sandboxgateway.ratelimit;

import java.time.Duration;
import java.util.Locale;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.metrics.MeterFamily;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a request's rate limits say to the client, once its tokens were taken ({@code budget.Admission} takes them
 * with the budget checks, in one call to the state). The answer carries the user's bucket in the IETF RateLimit
 * header vocabulary (draft-ietf-httpapi-ratelimit-headers): {@code RateLimit-Limit} the quota of the window
 * ({@code requests-per-minute}), {@code RateLimit-Policy} the quota, window and burst ({@code 60;w=60;burst=10}),
 * {@code RateLimit-Remaining} what may be sent now, {@code RateLimit-Reset} seconds until the bucket is full. A
 * refusal is {@code 429 rate_limit_exceeded} with {@code Retry-After} and the refusing bucket's figures, in the same
 * words as its message.
 */
public final class RateLimits {

    private final MeterFamily<Counter> decisions;

    public RateLimits(MeterRegistry meters) {
        this.decisions = MeterFamily.counters(meters, RateLimitMetrics.DECISIONS, null, "scope", "outcome");
    }

    /** Counts the outcome, writes its headers, and says whether the request may go on. */
    public Decision answer(Exchange exchange, RateLimiter.Take take) {
        decisions.with(take.scope().name().toLowerCase(Locale.ROOT), take.allowed() ? "allowed" : "denied").increment();
        exchange.addResponseHeader(GatewayHeaders.RATE_LIMIT_LIMIT, Long.toString(take.perMinute()));
        exchange.addResponseHeader(GatewayHeaders.RATE_LIMIT_POLICY, take.perMinute() + ";w=60;burst=" + take.burst());
        exchange.addResponseHeader(GatewayHeaders.RATE_LIMIT_REMAINING, Long.toString(take.remaining()));
        exchange.addResponseHeader(GatewayHeaders.RATE_LIMIT_RESET, Long.toString(ceilSeconds(take.reset().toNanos())));
        if (take.allowed()) {
            return Decision.PROCEED;
        }
        long retryAfter = Math.max(1, ceilSeconds(take.retryAfter().toNanos()));
        String whose = switch (take.scope()) {
            case KEY -> "your key's limit of " + take.perMinute() + " requests per minute";
            case USER -> "your limit of " + take.perMinute() + " requests per minute (bursts of " + take.burst() + ")";
            case TEAM -> "team " + exchange.principal().team() + "'s limit of " + take.perMinute() + " requests per minute";
        };
        return Decision.reject(ErrorCode.RATE_LIMIT_EXCEEDED,
                "Rate limit exceeded: " + whose + ". Retry after " + retryAfter + " s.").retryAfter(Duration.ofSeconds(retryAfter));
    }

    private static long ceilSeconds(long nanos) {
        return (nanos + 999_999_999L) / 1_000_000_000L;
    }
}
