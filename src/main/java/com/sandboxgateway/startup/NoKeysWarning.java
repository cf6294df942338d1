package com.sandboxgateway.startup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.sandboxgateway.auth.ApiKeyAuthenticator;

/**
 * A gateway without a single key starts (an operator may be rolling keys out), but refuses every call with
 * {@code 401 invalid_api_key}; it says so once at start-up rather than leave the first caller to find out.
 */
@Component
class NoKeysWarning {

    private static final Logger log = LoggerFactory.getLogger(NoKeysWarning.class);

    private final ApiKeyAuthenticator authenticator;

    NoKeysWarning(ApiKeyAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnWithoutKeys() {
        if (authenticator.principals().isEmpty()) {
            log.warn("No gateway keys are configured (gateway.auth.keys is empty): every /v1 call and every admin endpoint "
                    + "will be refused with 401. Add keys as SHA-256 hashes with a user and a team (see README, Proxy), "
                    + "or run with the dev profile for the development keys.");
        }
    }
}
