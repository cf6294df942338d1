package com.sandboxgateway.state;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.DefaultClientResources;

/**
 * The gateway's connections to Redis, opened on first use rather than at start-up, so a gateway started
 * while Redis is down still starts, answers by {@link StateProperties.OnFailure}, and picks Redis up when
 * it is back. Every command is bounded by the state timeout, and commands are refused at once while the
 * connection is down instead of queueing, so no request thread waits on a dead Redis.
 */
public final class RedisState implements AutoCloseable {

    /** Connection attempts after a failure are spaced by this much, so an outage costs one attempt per interval. */
    private static final long RECONNECT_INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();

    private static final Logger log = LoggerFactory.getLogger(RedisState.class);

    private final RedisClient client;
    private final Duration timeout;
    private final ReentrantLock connecting = new ReentrantLock();
    private volatile Connections connections;
    private volatile long nextAttemptNanos;

    /** The connection for counters, buckets and scripts; every value is text. */
    public record Connections(StatefulRedisConnection<String, String> text) {
    }

    public RedisState(RedisURI uri, Duration timeout) {
        this.timeout = timeout;
        uri.setTimeout(timeout);
        // Without Lettuce's own latency histograms per command: nothing reads them (the gateway's meters are
        // Micrometer's), and recording each command cost 0.3 % of the CPU (bench/README.md, session 31).
        this.client = RedisClient.create(
                DefaultClientResources.builder().commandLatencyRecorder(CommandLatencyRecorder.disabled()).build(), uri);
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .build());
    }

    /**
     * The open connections, connecting first if needed (callers arriving meanwhile wait for that attempt,
     * at most the timeout); throws when Redis cannot be reached now.
     */
    public Connections connections() {
        Connections current = connections;
        if (current != null) {
            return current;
        }
        if (System.nanoTime() < nextAttemptNanos) {
            throw new StateUnavailableException("Redis is unreachable", null);
        }
        try {
            if (!connecting.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new StateUnavailableException("Redis is still being connected", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StateUnavailableException("interrupted while connecting to Redis", e);
        }
        try {
            if (connections == null) {
                connections = connect();
            }
            return connections;
        } catch (RuntimeException e) {
            nextAttemptNanos = System.nanoTime() + RECONNECT_INTERVAL_NANOS;
            throw new StateUnavailableException("Redis is unreachable", e);
        } finally {
            connecting.unlock();
        }
    }

    /**
     * Connects at start-up, where the first connection's one-time costs (class loading, the event loop)
     * do not count against a request's timeout. A Redis that is down now does not stop the start: the
     * first requests find it unavailable and connecting is tried again.
     */
    void connectEarly() {
        try {
            connections = connect();
        } catch (RuntimeException e) {
            log.warn("Redis is not reachable at start-up ({}); requests follow gateway.state.on-failure until it is",
                    e.getMessage());
        }
    }

    private Connections connect() {
        return new Connections(client.connect(StringCodec.UTF8));
    }

    /**
     * A new pub/sub connection, which the caller closes; once subscribed it subscribes again by itself after a
     * reconnect. Throws when Redis cannot be reached now.
     */
    public StatefulRedisPubSubConnection<String, String> connectPubSub() {
        return client.connectPubSub(StringCodec.UTF8);
    }

    /** Whether Redis answers a PING within the timeout. */
    public boolean reachable() {
        try {
            return "PONG".equals(connections().text().sync().ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        Connections current = connections;
        if (current != null) {
            current.text().close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        client.getResources().shutdown(0, 2, TimeUnit.SECONDS);
    }
}
