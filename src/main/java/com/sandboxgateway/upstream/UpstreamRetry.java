package com.sandboxgateway.upstream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import org.apache.hc.client5.http.ConnectTimeoutException;

import io.github.resilience4j.core.IntervalFunction;

/**
 * When a failed upstream call may be sent again, and after how long. Only where it is safe: a request
 * that never reached the upstream (connection refused or timed out), a request OpenAI refused with
 * 429 (it did not run), and GET/DELETE, which change nothing when repeated. A POST that reached the
 * upstream is never repeated, since a {@code POST /v1/responses} may already have run code.
 */
final class UpstreamRetry {

    private static final Set<Integer> TRANSIENT_STATUSES = Set.of(500, 502, 503, 504);

    private final int maxAttempts;
    private final IntervalFunction backoff;
    private final Duration maxRetryAfter;

    UpstreamRetry(UpstreamProperties.Retry settings) {
        this.maxAttempts = settings.maxAttempts();
        this.backoff = IntervalFunction.ofExponentialRandomBackoff(settings.initialBackoff(), 2.0, 0.5);
        this.maxRetryAfter = settings.maxRetryAfter();
    }

    /** The wait before attempt {@code attempt + 1} after a failure to get any answer, or empty to give up. */
    Optional<Duration> afterFailure(int attempt, UpstreamRequest request, IOException failure) {
        if (attempt >= maxAttempts) {
            return Optional.empty();
        }
        boolean timedOut = failure instanceof InterruptedIOException;
        return neverSent(failure) || request.idempotent() && !timedOut ? Optional.of(backoff(attempt)) : Optional.empty();
    }

    /** The call failed before a byte of it reached the upstream: no connection, or no address. */
    static boolean neverSent(Throwable failure) {
        return failure instanceof ConnectException || failure instanceof ConnectTimeoutException
                || failure instanceof UnknownHostException;
    }

    /** The wait before attempt {@code attempt + 1} after this answer, or empty to relay it. */
    Optional<Duration> afterAnswer(int attempt, UpstreamRequest request, UpstreamResponse answer) {
        if (attempt >= maxAttempts || "false".equalsIgnoreCase(answer.header("x-should-retry"))) {
            return Optional.empty();
        }
        boolean retryable = answer.status() == 429 && request.repeatable()
                || TRANSIENT_STATUSES.contains(answer.status()) && request.idempotent();
        if (!retryable) {
            return Optional.empty();
        }
        Duration asked = retryAfter(answer);
        if (asked.compareTo(maxRetryAfter) > 0) {
            return Optional.empty();
        }
        Duration wait = backoff(attempt);
        return Optional.of(asked.compareTo(wait) > 0 ? asked : wait);
    }

    private Duration backoff(int attempt) {
        return Duration.ofMillis(backoff.apply(attempt));
    }

    /** OpenAI's {@code retry-after-ms}, else {@code retry-after} in seconds, else zero. */
    private static Duration retryAfter(UpstreamResponse answer) {
        try {
            String millis = answer.header("retry-after-ms");
            if (millis != null) {
                return Duration.ofMillis((long) Double.parseDouble(millis));
            }
            String seconds = answer.header("retry-after");
            return seconds == null ? Duration.ZERO : Duration.ofSeconds(Long.parseLong(seconds.strip()));
        } catch (NumberFormatException dateOrGarbage) {
            return Duration.ZERO;
        }
    }
}
