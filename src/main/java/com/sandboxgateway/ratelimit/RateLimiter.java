package com.sandboxgateway.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.state.StateUnavailableException;

/**
 * Token buckets per run-time key, user and team. A user's bucket holds {@code burst} tokens and refills at
 * {@code requests-per-minute}; a team's holds and refills {@code team-requests-per-minute}; a run-time key with a
 * limit of its own has a bucket that holds and refills that limit. A request takes one token from each, in that order;
 * a refusal by a later bucket gives the earlier ones their token back, so a refusal costs nothing. The limits are
 * part of each bucket's key, so a changed policy starts fresh buckets instead of mixing old and new.
 */
public final class RateLimiter {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final BucketStore store;

    public RateLimiter(BucketStore store) {
        this.store = store;
    }

    public enum Scope { KEY, USER, TEAM }

    /**
     * One bucket a request takes a token from.
     *
     * @param key where the bucket lives
     * @param capacity how many requests may come at once
     * @param perMinute its refill rate, the quota per minute
     */
    public record Bucket(Scope scope, String key, int capacity, int perMinute) {
    }

    /**
     * The outcome of taking one request from the buckets.
     *
     * @param perMinute the bucket's quota per minute (its refill rate)
     * @param burst the bucket's capacity: how many requests may come at once
     * @param remaining requests that may be sent right now
     * @param reset time until the bucket is full again
     */
    public record Take(Scope scope, boolean allowed, long perMinute, long burst, long remaining, Duration retryAfter,
                       Duration reset) {
    }

    /** The buckets a request of this principal takes a token from, in the order they are taken. */
    public static List<Bucket> bucketsOf(Principal principal, EffectivePolicy.Limits limits) {
        List<Bucket> buckets = new ArrayList<>(3);
        Integer keyPerMinute = principal.limits().requestsPerMinute();
        if (keyPerMinute != null) {
            buckets.add(new Bucket(Scope.KEY, "bucket:k:" + principal.keyId() + ":" + keyPerMinute, keyPerMinute, keyPerMinute));
        }
        buckets.add(userBucket(principal.user(), limits));
        int teamRate = limits.teamRequestsPerMinute();
        buckets.add(new Bucket(Scope.TEAM, "bucket:t:" + principal.team() + ":" + teamRate, teamRate, teamRate));
        return buckets;
    }

    /** A refusal by {@code bucket}, which holds {@code remaining} whole tokens and has one again in {@code retryAfterMicros}. */
    public static Take refused(Bucket bucket, long remaining, long retryAfterMicros) {
        return take(bucket, false, remaining, Duration.ofNanos(1000 * retryAfterMicros));
    }

    /**
     * Every bucket gave a token; {@code remaining} is what each holds after it, in the order of {@code buckets}.
     *
     * @return the key's outcome or the user's, whichever has less left (the team's is shared, and not shown)
     */
    public static Take allowed(List<Bucket> buckets, long[] remaining) {
        int user = 0;
        while (buckets.get(user).scope() != Scope.USER) {
            user++;
        }
        int shown = buckets.get(0).scope() == Scope.KEY && remaining[0] < remaining[user] ? 0 : user;
        return take(buckets.get(shown), true, remaining[shown], Duration.ZERO);
    }

    /**
     * What is left in a user's bucket, without taking anything.
     *
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    public long available(String user, EffectivePolicy.Limits limits) {
        return store.available(userBucket(user, limits));
    }

    /**
     * Refills a user's bucket.
     *
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    public void reset(String user, EffectivePolicy.Limits limits) {
        store.remove(userBucket(user, limits));
    }

    private static Bucket userBucket(String user, EffectivePolicy.Limits limits) {
        return new Bucket(Scope.USER, "bucket:u:" + user + ":" + limits.requestsPerMinute() + "/" + limits.burst(),
                limits.burst(), limits.requestsPerMinute());
    }

    private static Take take(Bucket bucket, boolean allowed, long remaining, Duration retryAfter) {
        long missing = bucket.capacity() - remaining;
        Duration reset = Duration.ofNanos(MINUTE.toNanos() * missing / bucket.perMinute());
        return new Take(bucket.scope(), allowed, bucket.perMinute(), bucket.capacity(), remaining, retryAfter, reset);
    }
}
