package com.sandboxgateway.ratelimit;

import com.sandboxgateway.state.StateUnavailableException;

/**
 * Where the token buckets live (this JVM, or Redis), as administrators see them. Requests take their tokens in the
 * same call that checks their budgets ({@code budget.Admission}), so the store that holds the budget counters
 * holds the buckets too.
 */
public interface BucketStore {

    /**
     * What is left in a bucket now, without taking anything.
     *
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    long available(RateLimiter.Bucket bucket);

    /**
     * Forgets a bucket, so its next use starts full.
     *
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    void remove(RateLimiter.Bucket bucket);
}
