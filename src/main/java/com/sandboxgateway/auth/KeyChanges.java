package com.sandboxgateway.auth;

import java.util.function.Consumer;

/**
 * Tells every replica that a run-time key changed, so each drops what it cached of it. With the Redis
 * backend this is pub/sub (in {@code state/}); otherwise {@link #NONE}.
 */
public interface KeyChanges {

    /** Only the key cache's time-to-live bounds how late other replicas see a change. */
    KeyChanges NONE = new KeyChanges() {
        @Override
        public void publish(String keyId) {
        }

        @Override
        public void subscribe(Consumer<String> listener) {
        }
    };

    void publish(String keyId);

    /** Calls {@code listener} with the id of every key changed on any replica (this one included). */
    void subscribe(Consumer<String> listener);
}
