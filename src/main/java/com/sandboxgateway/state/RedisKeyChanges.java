package com.sandboxgateway.state;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import com.sandboxgateway.auth.KeyChanges;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * Key changes over Redis pub/sub ({@code gateway.state.backend=redis}): every replica hears of a
 * revocation or rotation at once. Pub/sub delivers at most once, so a message lost while a replica
 * was disconnected is covered by the key cache's time-to-live, not by this class.
 */
@Component
@ConditionalOnProperty(name = "gateway.state.backend", havingValue = "redis")
final class RedisKeyChanges implements KeyChanges, AutoCloseable {

    static final String CHANNEL = "gateway:keys:changed";
    private static final Duration RETRY = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(RedisKeyChanges.class);

    private final RedisState redis;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("key-changes").daemon().factory());
    private volatile StatefulRedisPubSubConnection<String, String> subscription;

    RedisKeyChanges(RedisState redis) {
        this.redis = redis;
    }

    @Override
    public void publish(String keyId) {
        try {
            redis.connections().text().sync().publish(CHANNEL, keyId);
        } catch (RuntimeException e) {
            log.warn("Could not tell the other replicas that key {} changed ({}); they see it within gateway.auth.runtime-keys.cache-ttl",
                    keyId, e.getMessage());
        }
    }

    /** Subscribes now (so a started replica hears of changes), or keeps trying every few seconds while Redis is down. */
    @Override
    public void subscribe(Consumer<String> listener) {
        trySubscribe(listener);
    }

    private void trySubscribe(Consumer<String> listener) {
        try {
            StatefulRedisPubSubConnection<String, String> connection = redis.connectPubSub();
            connection.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String keyId) {
                    listener.accept(keyId);
                }
            });
            connection.sync().subscribe(CHANNEL);
            subscription = connection;
        } catch (RuntimeException e) {
            log.warn("Could not subscribe to key changes in Redis ({}); trying again in {} s, meanwhile changes made on other"
                    + " replicas hold here within gateway.auth.runtime-keys.cache-ttl", e.getMessage(), RETRY.toSeconds());
            retries.schedule(() -> trySubscribe(listener), RETRY.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        retries.shutdownNow();
        StatefulRedisPubSubConnection<String, String> current = subscription;
        if (current != null) {
            current.close();
        }
    }
}
