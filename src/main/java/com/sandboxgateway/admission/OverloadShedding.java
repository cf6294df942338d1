package com.sandboxgateway.admission;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Admits at most {@code max-in-flight} requests at once, lets at most {@code max-waiting} more wait up to
 * {@code max-queue-wait} for a place, and sheds the rest at once with {@code 503 overloaded},
 * {@code Retry-After} and {@code x-should-retry: true}. It runs ahead of everything else on {@code /v1}, so a
 * shed request costs no authentication, policy or upstream work, and the time to the answer is bounded by
 * the wait. The gateway serves each request on a virtual thread, which would otherwise queue without limit.
 */
final class OverloadShedding implements Filter {

    /** Metric: requests shed with {@code 503 overloaded}, by {@code reason} ({@code queue_full}, {@code queue_wait}). */
    static final String SHED = "gateway.overload.shed";
    /** Metric: requests this replica serves now. */
    static final String IN_FLIGHT = "gateway.overload.in_flight";
    /** Metric: requests waiting for a place. */
    static final String WAITING = "gateway.overload.waiting";

    private static final String MESSAGE = "The gateway is at capacity right now and did not start this request. "
            + "Retry after the number of seconds in Retry-After.";

    private final Semaphore places;
    private final AtomicInteger waiting = new AtomicInteger();
    private final int maxWaiting;
    private final long maxQueueWaitNanos;
    private final String retryAfter;
    private final byte[] body;
    private final Counter queueFull;
    private final Counter waitedTooLong;

    OverloadShedding(OverloadProperties properties, MeterRegistry meters) {
        this.places = new Semaphore(properties.maxInFlight(), true);
        this.maxWaiting = properties.maxWaiting();
        this.maxQueueWaitNanos = properties.maxQueueWait().toNanos();
        this.retryAfter = String.valueOf(properties.retryAfter().toSeconds());
        this.body = ("{\"error\":{\"message\":\"" + MESSAGE + "\",\"type\":\"" + ErrorCode.OVERLOADED.type()
                + "\",\"param\":null,\"code\":\"" + ErrorCode.OVERLOADED.code() + "\"}}").getBytes(StandardCharsets.UTF_8);
        this.queueFull = shed(meters, "queue_full");
        this.waitedTooLong = shed(meters, "queue_wait");
        int maxInFlight = properties.maxInFlight();
        Gauge.builder(IN_FLIGHT, places, p -> maxInFlight - p.availablePermits())
                .description("Requests on /v1 this replica serves now").register(meters);
        Gauge.builder(WAITING, waiting, AtomicInteger::get)
                .description("Requests on /v1 waiting for a place").register(meters);
    }

    private static Counter shed(MeterRegistry meters, String reason) {
        return Counter.builder(SHED).description("Requests on /v1 shed with 503 overloaded, by reason")
                .tag("reason", reason).register(meters);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (!admitted()) {
            refuse((HttpServletResponse) response);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            places.release();
        }
    }

    /**
     * A free place, unless requests are waiting for one: they are served in the order they came, so a request that has
     * waited is not overtaken by one that just arrived (the semaphore is fair, and a timed acquire keeps to its order
     * where an untimed one would barge).
     */
    private boolean admitted() {
        try {
            if (places.tryAcquire(0, TimeUnit.NANOSECONDS)) {
                return true;
            }
            if (waiting.incrementAndGet() > maxWaiting) {
                waiting.decrementAndGet();
                queueFull.increment();
                return false;
            }
            try {
                if (places.tryAcquire(maxQueueWaitNanos, TimeUnit.NANOSECONDS)) {
                    return true;
                }
            } finally {
                waiting.decrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        waitedTooLong.increment();
        return false;
    }

    private void refuse(HttpServletResponse response) throws IOException {
        response.setStatus(ErrorCode.OVERLOADED.status());
        response.setHeader("Retry-After", retryAfter);
        response.setHeader(GatewayHeaders.SHOULD_RETRY, "true");
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
