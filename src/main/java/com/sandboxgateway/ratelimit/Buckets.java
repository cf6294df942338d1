package com.sandboxgateway.ratelimit;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import com.sandboxgateway.state.RedisState;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.proxy.RetryDecision;
import io.github.bucket4j.distributed.proxy.RetryStrategy;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.local.LocalBucketBuilder;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;

/** Where the token buckets live: in this JVM, or in Redis where every replica sees the same bucket. */
sealed interface Buckets {

    /** The bucket under a key, created with {@code configuration} if it does not exist yet. */
    Bucket bucket(String key, BucketConfiguration configuration);

    /** Forgets a bucket, so its next use starts full. */
    void remove(String key);

    /** Buckets of one JVM; keys are bounded by the configured users and teams. */
    final class Local implements Buckets {

        private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

        @Override
        public Bucket bucket(String key, BucketConfiguration configuration) {
            return buckets.computeIfAbsent(key, k -> {
                LocalBucketBuilder builder = Bucket.builder();
                for (Bandwidth limit : configuration.getBandwidths()) {
                    builder.addLimit(limit);
                }
                return builder.build();
            });
        }

        @Override
        public void remove(String key) {
            buckets.remove(key);
        }
    }

    /**
     * Buckets in Redis through bucket4j's compare-and-swap proxy. Every Redis request is bounded by the
     * timeout; an update that lost a race (another request or replica changed the bucket in between) is
     * retried after a short random pause, so racers spread out instead of colliding again, until
     * {@code maxRetries} attempts or ten timeouts have passed (a dead Redis fails the first request at
     * the timeout; a busy bucket is not a dead Redis). Concurrent requests of this JVM for one bucket
     * are batched into one update, so racers are mostly other replicas. A bucket expires once it would
     * be full again, so idle users cost Redis nothing.
     */
    final class Redis implements Buckets {

        private static final int CONTENTION_TIMEOUTS = 10;

        /** One proxy per key, so concurrent requests of this JVM for one bucket are batched into one update. */
        private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
        private final RedisState redis;
        private final Duration timeout;
        private final int maxRetries;
        private volatile ProxyManager<String> proxies;

        Redis(RedisState redis, Duration timeout, int maxRetries) {
            this.redis = redis;
            this.timeout = timeout;
            this.maxRetries = maxRetries;
        }

        @Override
        public Bucket bucket(String key, BucketConfiguration configuration) {
            ProxyManager<String> manager = proxies();
            return buckets.computeIfAbsent(key, k -> manager.builder().withOptimization(Optimizations.batching())
                    .build(k, () -> configuration));
        }

        @Override
        public void remove(String key) {
            proxies().removeProxy(key);
            buckets.remove(key);
        }

        private ProxyManager<String> proxies() {
            RedisState.Connections connections = redis.connections();
            ProxyManager<String> current = proxies;
            if (current == null) {
                current = Bucket4jLettuce.casBasedBuilder(connections.buckets())
                        .requestTimeout(timeout)
                        .retryStrategy(this::retry)
                        .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                        .build();
                proxies = current;
            }
            return current;
        }

        private RetryDecision retry(RetryStrategy.RetryMetadata attempt) {
            if (attempt.getAttemptNumber() >= maxRetries || attempt.getElapsedTimeNanos() >= CONTENTION_TIMEOUTS * timeout.toNanos()) {
                return RetryDecision.stop();
            }
            long maxPauseMicros = 200L * Math.min(attempt.getAttemptNumber() + 1, 10);
            return RetryDecision.retryAfter(Duration.ofNanos(1000 * ThreadLocalRandom.current().nextLong(50, maxPauseMicros)));
        }
    }
}
