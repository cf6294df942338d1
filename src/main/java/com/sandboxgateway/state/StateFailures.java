package com.sandboxgateway.state;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.policy.Decision;

/**
 * What a request gets when its limits or budgets cannot be checked (Redis down or hanging): refused
 * with {@code 503 state_unavailable} ({@code deny}, the default), or served without that check
 * ({@code allow}). Logged either way, so an unmetered period is visible.
 */
public final class StateFailures {

    private static final Logger log = LoggerFactory.getLogger(StateFailures.class);

    private final StateProperties.OnFailure onFailure;

    public StateFailures(StateProperties.OnFailure onFailure) {
        this.onFailure = onFailure;
    }

    /** @param what the check that failed, e.g. {@code rate limits} */
    public Decision decide(String what, StateUnavailableException failure) {
        if (onFailure == StateProperties.OnFailure.ALLOW) {
            log.warn("The {} could not be checked ({}); the request is served without them", what, failure.getMessage());
            return Decision.PROCEED;
        }
        log.warn("The {} could not be checked ({}); the request is refused", what, failure.getMessage());
        return Decision.reject(ErrorCode.STATE_UNAVAILABLE, "The gateway cannot check " + what
                + " right now, so it refuses requests until it can. Retry shortly.");
    }
}
