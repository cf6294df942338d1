package com.sandboxgateway.upstream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.pool.PoolStats;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * The gateway's only way to OpenAI. Each call takes a slot of its team's concurrency cap (held until
 * the answer is closed, streams included), passes the circuit breaker, and is repeated only where
 * {@link UpstreamRetry} says it is safe. Transport failures become gateway errors.
 */
public final class UpstreamClient implements AutoCloseable {

    /** Name of the team bulkhead configuration ({@code resilience4j.bulkhead.configs.team}). */
    static final String TEAM_BULKHEAD_CONFIG = "team";

    private final UpstreamTransport transport;
    private final CircuitBreaker breaker;
    private final BulkheadRegistry bulkheads;
    private final UpstreamRetry retry;

    UpstreamClient(UpstreamTransport transport, CircuitBreaker breaker, BulkheadRegistry bulkheads, UpstreamRetry retry) {
        this.transport = transport;
        this.breaker = breaker;
        this.bulkheads = bulkheads;
        this.retry = retry;
    }

    /**
     * Sends the request and returns as soon as the status and headers are in; the caller owns the
     * returned answer and must close it.
     *
     * @throws GatewayException {@code rate_limit_exceeded} when the team's cap is reached,
     *         {@code upstream_unavailable} while the breaker is open, {@code upstream_timeout} or
     *         {@code upstream_error} when no answer came
     */
    public UpstreamResponse send(UpstreamRequest request) {
        Bulkhead bulkhead = bulkheads.bulkhead("team-" + request.team(), TEAM_BULKHEAD_CONFIG);
        if (!bulkhead.tryAcquirePermission()) {
            throw GatewayException.retryable(ErrorCode.RATE_LIMIT_EXCEEDED, "Your team already has "
                    + bulkhead.getBulkheadConfig().getMaxConcurrentCalls()
                    + " calls running at OpenAI, its concurrency cap. Retry when one of them finishes.", Duration.ofSeconds(1));
        }
        try {
            UpstreamResponse answer = sendWithRetries(request);
            answer.onClose(bulkhead::onComplete);
            return answer;
        } catch (RuntimeException e) {
            bulkhead.onComplete();
            throw e;
        }
    }

    private UpstreamResponse sendWithRetries(UpstreamRequest request) {
        for (int attempt = 1; ; attempt++) {
            Optional<Duration> wait;
            try {
                UpstreamResponse answer = sendThroughBreaker(request);
                wait = retry.afterAnswer(attempt, request, answer);
                if (wait.isEmpty()) {
                    return answer;
                }
                answer.close();
            } catch (IOException e) {
                wait = retry.afterFailure(attempt, request, e);
                if (wait.isEmpty()) {
                    throw failure(e);
                }
            }
            pause(wait.get());
        }
    }

    private UpstreamResponse sendThroughBreaker(UpstreamRequest request) throws IOException {
        if (!breaker.tryAcquirePermission()) {
            long waitMillis = breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1);
            throw GatewayException.retryable(ErrorCode.UPSTREAM_UNAVAILABLE,
                    "The upstream API is failing and the gateway stopped calling it for a while. Retry later.",
                    Duration.ofMillis(Math.max(1000, waitMillis)));
        }
        long start = System.nanoTime();
        try {
            UpstreamResponse answer = transport.exchange(request);
            if (answer.status() >= 500) {
                breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, new UpstreamStatusException(answer.status()));
            } else {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
            return answer;
        } catch (IOException | RuntimeException e) {
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
            throw e;
        }
    }

    private static void pause(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GatewayException(ErrorCode.UPSTREAM_UNAVAILABLE, "The gateway is shutting down. Retry shortly.");
        }
    }

    /** Maps an I/O failure while talking to the upstream to the error the client sees. */
    public static GatewayException failure(IOException e) {
        if (e instanceof ConnectionRequestTimeoutException) {
            return GatewayException.retryable(ErrorCode.UPSTREAM_UNAVAILABLE,
                    "The gateway has no free connection to the upstream API. Retry shortly.", Duration.ofSeconds(1));
        }
        if (e instanceof SocketTimeoutException || e instanceof ConnectTimeoutException || e instanceof InterruptedIOException) {
            return new GatewayException(ErrorCode.UPSTREAM_TIMEOUT,
                    "The upstream API did not answer in time. Retry later; long code-interpreter runs can use background mode.",
                    null, e);
        }
        return new GatewayException(ErrorCode.UPSTREAM_ERROR,
                "The upstream API failed to answer properly (" + e.getClass().getSimpleName() + "). Retry later.", null, e);
    }

    /**
     * Whether the client may send again a request that failed with this error. Not a POST whose upstream call
     * failed after it may have reached OpenAI ({@code upstream_error}, {@code upstream_timeout}): it may already
     * have run code, which is why the gateway never repeats it either. A call that could not connect never got there.
     */
    public static boolean worthRetrying(String method, GatewayException failure) {
        return worthRetrying(method, failure.code(), failure.getCause());
    }

    /**
     * {@link #worthRetrying(String, GatewayException)} for an error with this code.
     *
     * @param cause what failed underneath, or {@code null} (a refusal)
     */
    public static boolean worthRetrying(String method, ErrorCode code, Throwable cause) {
        return code.worthRetrying() && (UpstreamRequest.idempotent(method) || !mayHaveReachedUpstream(code, cause));
    }

    /**
     * Whether an error with this code is an upstream call's failure after the call may have reached OpenAI
     * ({@code upstream_error}, {@code upstream_timeout}, unless it never connected): OpenAI may have acted on it.
     *
     * @param cause what failed underneath, or {@code null} (a refusal)
     */
    public static boolean mayHaveReachedUpstream(ErrorCode code, Throwable cause) {
        return (code == ErrorCode.UPSTREAM_ERROR || code == ErrorCode.UPSTREAM_TIMEOUT) && !UpstreamRetry.neverSent(cause);
    }

    /** Connections currently leased, idle and awaited; used by health checks and leak tests. */
    public PoolStats poolStats() {
        return transport.poolStats();
    }

    @Override
    public void close() throws IOException {
        transport.close();
    }

    /** Counts a 5xx answer as a failure for the breaker. */
    static final class UpstreamStatusException extends IOException {
        UpstreamStatusException(int status) {
            super("upstream answered " + status);
        }
    }
}
