package com.sandboxgateway.state;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.policy.Decision;

/**
 * What a request gets when its limits or budgets cannot be checked (Redis down or hanging): refused
 * with {@code 503 state_unavailable} ({@code deny}, the default), or served without that check
 * ({@code allow}). Logged either way, so an unmetered period is visible, but at most once per interval
 * with the count since, so an outage under load does not flood the logs.
 */
public final class StateFailures {

    private static final Logger log = LoggerFactory.getLogger(StateFailures.class);
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final StateProperties.OnFailure onFailure;
    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);
    private final AtomicLong unlogged = new AtomicLong();

    public StateFailures(StateProperties.OnFailure onFailure) {
        this.onFailure = onFailure;
    }

    /**
     * A refusal carries {@code Retry-After}: the connection is tried again about every second.
     *
     * @param what the check that failed, e.g. {@code rate limits}
     */
    public Decision decide(String what, StateUnavailableException failure) {
        boolean allow = onFailure == StateProperties.OnFailure.ALLOW;
        logOccasionally(what, failure, allow ? "served without them" : "refused");
        if (allow) {
            return Decision.PROCEED;
        }
        return Decision.reject(ErrorCode.STATE_UNAVAILABLE, "The gateway cannot check " + what
                + " right now, so it refuses requests until it can. Retry shortly.").retryAfter(RETRY_AFTER);
    }

    private void logOccasionally(String what, StateUnavailableException failure, String outcome) {
        long now = System.nanoTime();
        long last = lastLogged.get();
        long count = unlogged.incrementAndGet();
        if (now - last >= LOG_INTERVAL_NANOS && lastLogged.compareAndSet(last, now)) {
            unlogged.addAndGet(-count);
            log.warn("The {} could not be checked ({}); the request is {} ({} such requests since the last report)",
                    what, failure.getMessage(), outcome, count);
        }
    }
}
