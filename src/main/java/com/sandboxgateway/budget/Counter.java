package com.sandboxgateway.budget;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * One budget counter: what has been used (settled and reserved) under a key.
 *
 * @param key where the counter lives; keys reserved together share a Redis hash tag
 * @param limit the most it may reach
 * @param ttl how long an untouched counter is kept
 * @param seed the settled usage from the relational store, read when the counter is missing (first use,
 *        or after Redis lost it)
 */
record Counter(String key, long limit, Duration ttl, LongSupplier seed) {
}
