package com.sandboxgateway.upstream;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.api.Setting;

/**
 * Where the gateway forwards to and how long it waits.
 *
 * @param baseUrl the OpenAI API root, without {@code /v1}; ignored when no key is set and the
 *        offline simulator plays OpenAI
 * @param apiKey the organisation's OpenAI key; the only credential that ever goes upstream. Leave it
 *        empty to run against the bundled offline simulator
 * @param connectTimeout how long to wait for a TCP/TLS connection to the upstream
 * @param readTimeout how long an exchange with the upstream may stay silent: no byte of the request sent, no
 *        byte of the answer received; long, because code-interpreter runs take minutes
 * @param streamIdleTimeout how long a streamed answer may stay silent before the gateway ends it with
 *        an {@code error} event
 * @param maxConnections pooled upstream connections; each running call holds one
 * @param retry when and how failed calls are repeated (only where it is safe)
 * @param allowSimulator whether an empty {@code api-key} may start the offline simulator; production sets
 *        it to {@code false}, so a key that went missing stops the start instead of answering from fakes
 */
@ConfigurationProperties("gateway.upstream")
public record UpstreamProperties(
        @DefaultValue("https://api.openai.com") URI baseUrl,
        String apiKey,
        @DefaultValue("5s") Duration connectTimeout,
        @DefaultValue("10m") Duration readTimeout,
        @DefaultValue("5m") Duration streamIdleTimeout,
        @DefaultValue("1000") int maxConnections,
        @DefaultValue Retry retry,
        @DefaultValue("true") boolean allowSimulator) {

    /**
     * Repeating failed calls.
     *
     * @param maxAttempts attempts in all, the first included; 1 turns retries off
     * @param initialBackoff the first wait, doubled each time, with ±50% jitter
     * @param maxRetryAfter an upstream {@code Retry-After} longer than this is not waited for: the
     *        client gets the 429 instead
     */
    public record Retry(@DefaultValue("3") int maxAttempts, @DefaultValue("200ms") Duration initialBackoff,
                        @DefaultValue("10s") Duration maxRetryAfter) {

        public Retry {
            Setting.atLeast(1, maxAttempts, "gateway.upstream.retry.max-attempts", "Set 1 to turn retries off, or more.");
            Setting.positive(initialBackoff, "gateway.upstream.retry.initial-backoff", "Set the first wait, e.g. 200ms.");
            Setting.notNegative(maxRetryAfter, "gateway.upstream.retry.max-retry-after",
                    "Set the longest upstream Retry-After worth waiting for, e.g. 10s (0: never wait).");
        }
    }

    public UpstreamProperties {
        Setting.positive(connectTimeout, "gateway.upstream.connect-timeout", "Set how long to wait for a connection, e.g. 5s.");
        Setting.positive(readTimeout, "gateway.upstream.read-timeout",
                "Set how long to wait for an answer, e.g. 10m: code-interpreter runs take minutes.");
        Setting.positive(streamIdleTimeout, "gateway.upstream.stream-idle-timeout",
                "Set how long a stream may stay silent, e.g. 5m.");
        Setting.atLeast(1, maxConnections, "gateway.upstream.max-connections",
                "Set how many upstream connections to pool: each running call holds one.");
        if (!allowSimulator && (apiKey == null || apiKey.isBlank())) {
            throw new InvalidSettingException("gateway.upstream.api-key", null,
                    "it is empty and gateway.upstream.allow-simulator is false",
                    "Set the organisation's OpenAI key (OPENAI_API_KEY).");
        }
    }

    /** True when no OpenAI key is configured and the offline simulator should answer instead. */
    public boolean useSimulator() {
        return apiKey == null || apiKey.isBlank();
    }
}
