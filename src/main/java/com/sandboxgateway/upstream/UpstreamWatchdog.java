package com.sandboxgateway.upstream;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hc.core5.concurrent.Cancellable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends upstream exchanges that went silent: no byte either way for longer than their limit. It replaces the
 * sockets' read timeout, which on a virtual thread schedules and cancels a wake-up on the JDK's timer thread for
 * every read that has to wait (the timer thread then preempts the request's carrier; measured, bench/README.md:
 * 7-17 % of the gateway's CPU per request, and half its p99 at 16 connections). One sweep per tick over the
 * exchanges in flight costs nothing per read. An exchange it ends is cancelled (its connection closed), and its
 * reader gets a {@link SocketTimeoutException}.
 */
final class UpstreamWatchdog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UpstreamWatchdog.class);
    private static final Duration FINEST_TICK = Duration.ofMillis(10);
    private static final Duration COARSEST_TICK = Duration.ofSeconds(1);

    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService sweeper;

    /** @param shortestLimit the shortest limit it will be given: a sweep every twentieth of it, 10 ms to 1 s apart */
    UpstreamWatchdog(Duration shortestLimit) {
        Duration tick = shortestLimit.dividedBy(20);
        tick = tick.compareTo(FINEST_TICK) < 0 ? FINEST_TICK : tick.compareTo(COARSEST_TICK) > 0 ? COARSEST_TICK : tick;
        this.sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("upstream-watchdog").daemon().factory());
        sweeper.scheduleWithFixedDelay(this::sweep, tick.toNanos(), tick.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Starts watching an exchange; once it is silent for longer than {@code limit}, {@code exchange.cancel()} ends it. */
    Watch watch(Cancellable exchange, Duration limit) {
        Watch watch = new Watch(exchange, limit);
        watched.add(watch);
        return watch;
    }

    private void sweep() {
        long now = System.nanoTime();
        for (Watch watch : watched) {
            if (now - watch.lastHeard > watch.limitNanos) {
                try {
                    watch.expire();
                } catch (RuntimeException e) {
                    // A sweep that threw would be the last one: the executor stops a task that fails.
                    log.warn("Could not cancel an upstream call silent for {}", watch.limit, e);
                }
            }
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }

    /** One exchange being watched; {@link #heard()} on every byte moved, {@link #done()} at its end. */
    final class Watch {

        private static final int LIVE = 0;
        private static final int DONE = 1;
        private static final int EXPIRED = 2;

        private final Cancellable exchange;
        private final Duration limit;
        private final long limitNanos;
        private final AtomicInteger state = new AtomicInteger(LIVE);
        private volatile long lastHeard = System.nanoTime();

        private Watch(Cancellable exchange, Duration limit) {
            this.exchange = exchange;
            this.limit = limit;
            this.limitNanos = limit.toNanos();
        }

        /** The exchange moved bytes: its silence starts again. */
        void heard() {
            lastHeard = System.nanoTime();
        }

        /** The exchange ended (answered, failed or closed); no longer watched. */
        void done() {
            if (state.compareAndSet(LIVE, DONE)) {
                watched.remove(this);
            }
        }

        /**
         * The exchange failed: it is no longer watched, and what to report is a timeout if the watchdog ended it, else
         * the failure itself.
         */
        IOException failed(IOException cause) {
            done();
            if (state.get() != EXPIRED) {
                return cause;
            }
            SocketTimeoutException timeout = new SocketTimeoutException("the upstream was silent for " + limit);
            timeout.initCause(cause);
            return timeout;
        }

        private void expire() {
            if (state.compareAndSet(LIVE, EXPIRED)) {
                watched.remove(this);
                exchange.cancel();
            }
        }
    }
}
