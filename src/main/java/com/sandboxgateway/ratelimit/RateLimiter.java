package com.sandboxgateway.ratelimit;

import java.time.Duration;
import java.util.function.Supplier;

import com.sandboxgateway.policy.EffectivePolicy;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.state.StateUnavailableException;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;

/**
 * Token buckets per user and per team. A user's bucket holds {@code burst} tokens and refills at
 * {@code requests-per-minute}; a team's holds and refills {@code team-requests-per-minute}. The limits
 * are part of each bucket's key, so a changed policy starts fresh buckets instead of mixing old and new.
 */
public final class RateLimiter {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final Buckets buckets;

    private RateLimiter(Buckets buckets) {
        this.buckets = buckets;
    }

    /** Buckets in this JVM. */
    public static RateLimiter local() {
        return new RateLimiter(new Buckets.Local());
    }

    /** Buckets in Redis, each call bounded by {@code timeout} and retried at most {@code maxRetries} times on contention. */
    public static RateLimiter redis(RedisState redis, Duration timeout, int maxRetries) {
        return new RateLimiter(new Buckets.Redis(redis, timeout, maxRetries));
    }

    /**
     * The outcome of taking one request from a bucket.
     *
     * @param perMinute the bucket's quota per minute (its refill rate)
     * @param burst the bucket's capacity: how many requests may come at once
     * @param remaining requests that may be sent right now
     * @param reset time until the bucket is full again
     */
    public record Take(Scope scope, boolean allowed, long perMinute, long burst, long remaining, Duration retryAfter,
                       Duration reset) {
    }

    public enum Scope { KEY, USER, TEAM }

    /**
     * Takes one request from the user's bucket, then from the team's. A request the team's bucket
     * refuses gives the user's token back, so a refusal never costs the user anything.
     *
     * @return the refusing bucket's outcome, or the user's when both allowed
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    public Take take(String user, String team, EffectivePolicy.Limits limits) {
        return reaching(() -> takeFromBoth(user, team, limits));
    }

    /**
     * Takes one request from a run-time key's own bucket ({@code keyPerMinute}, as capacity and refill), then
     * as {@link #take(String, String, EffectivePolicy.Limits)}; a refusal there gives the key's token back. A key's
     * bucket only narrows: the user's and the team's still apply to every request of the key.
     *
     * @return the refusing bucket's outcome, or, when all allowed, the key's or the user's, whichever has less left
     */
    public Take take(String keyId, int keyPerMinute, String user, String team, EffectivePolicy.Limits limits) {
        return reaching(() -> {
            Bucket keyBucket = buckets.bucket("rl:k:" + keyId + ":" + keyPerMinute, configuration(keyPerMinute, keyPerMinute));
            Take byKey = take(Scope.KEY, keyBucket, keyPerMinute, keyPerMinute);
            if (!byKey.allowed()) {
                return byKey;
            }
            Take rest = takeFromBoth(user, team, limits);
            if (!rest.allowed()) {
                keyBucket.addTokens(1);
                return rest;
            }
            return byKey.remaining() < rest.remaining() ? byKey : rest;
        });
    }

    private Take takeFromBoth(String user, String team, EffectivePolicy.Limits limits) {
        Bucket userBucket = userBucket(user, limits);
        Take byUser = take(Scope.USER, userBucket, limits.burst(), limits.requestsPerMinute());
        if (!byUser.allowed()) {
            return byUser;
        }
        Take byTeam = take(Scope.TEAM, teamBucket(team, limits), limits.teamRequestsPerMinute(), limits.teamRequestsPerMinute());
        if (!byTeam.allowed()) {
            userBucket.addTokens(1);
            return byTeam;
        }
        return byUser;
    }

    /**
     * What is left in a user's bucket, without taking anything.
     *
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    public long available(String user, EffectivePolicy.Limits limits) {
        return reaching(() -> userBucket(user, limits).getAvailableTokens());
    }

    /**
     * Refills a user's bucket.
     *
     * @throws StateUnavailableException when the buckets cannot be reached in time
     */
    public void reset(String user, EffectivePolicy.Limits limits) {
        reaching(() -> {
            buckets.remove(userKey(user, limits));
            return null;
        });
    }

    /** Any failure of the bucket store (Redis down, timed out, contention beyond the retries) is the state being unavailable. */
    private static <T> T reaching(Supplier<T> call) {
        try {
            return call.get();
        } catch (StateUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StateUnavailableException("the rate-limit buckets could not be reached", e);
        }
    }

    private Bucket userBucket(String user, EffectivePolicy.Limits limits) {
        return buckets.bucket(userKey(user, limits), configuration(limits.burst(), limits.requestsPerMinute()));
    }

    private Bucket teamBucket(String team, EffectivePolicy.Limits limits) {
        int rate = limits.teamRequestsPerMinute();
        return buckets.bucket("rl:t:" + team + ":" + rate, configuration(rate, rate));
    }

    private static String userKey(String user, EffectivePolicy.Limits limits) {
        return "rl:u:" + user + ":" + limits.requestsPerMinute() + "/" + limits.burst();
    }

    private static BucketConfiguration configuration(int capacity, int perMinute) {
        return BucketConfiguration.builder()
                .addLimit(limit -> limit.capacity(capacity).refillGreedy(perMinute, MINUTE))
                .build();
    }

    private static Take take(Scope scope, Bucket bucket, int capacity, int perMinute) {
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        long missing = capacity - probe.getRemainingTokens();
        Duration reset = Duration.ofNanos(MINUTE.toNanos() * missing / perMinute);
        return new Take(scope, probe.isConsumed(), perMinute, capacity, probe.getRemainingTokens(),
                Duration.ofNanos(probe.getNanosToWaitForRefill()), reset);
    }
}
