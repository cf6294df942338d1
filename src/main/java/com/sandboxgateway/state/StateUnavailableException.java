package com.sandboxgateway.state;

/** The shared state (Redis) could not answer in time; callers apply {@link StateProperties.OnFailure}. */
public class StateUnavailableException extends RuntimeException {

    public StateUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
