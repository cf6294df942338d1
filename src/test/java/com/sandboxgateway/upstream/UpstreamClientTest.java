package com.sandboxgateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

class UpstreamClientTest {

    @Test
    void shouldMapTransportFailuresToGatewayErrors() {
        assertThat(UpstreamClient.failure(new SocketTimeoutException()).code()).isEqualTo(ErrorCode.UPSTREAM_TIMEOUT);
        assertThat(UpstreamClient.failure(new ConnectTimeoutException("connect")).code()).isEqualTo(ErrorCode.UPSTREAM_TIMEOUT);
        assertThat(UpstreamClient.failure(new ConnectException("refused")).code()).isEqualTo(ErrorCode.UPSTREAM_ERROR);
        GatewayException poolExhausted = UpstreamClient.failure(new ConnectionRequestTimeoutException("pool"));
        assertThat(poolExhausted.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
        assertThat(poolExhausted.retryAfter()).isPositive();
    }

    @Test
    void shouldTellClientsNotToResendAPostThatMayHaveReachedTheUpstream() {
        GatewayException timedOut = UpstreamClient.failure(new SocketTimeoutException("read"));
        GatewayException reset = UpstreamClient.failure(new IOException("Connection reset"));
        GatewayException malformed = new GatewayException(ErrorCode.UPSTREAM_ERROR, "malformed JSON");

        assertThat(UpstreamClient.worthRetrying("POST", timedOut)).isFalse();
        assertThat(UpstreamClient.worthRetrying("POST", reset)).isFalse();
        assertThat(UpstreamClient.worthRetrying("POST", malformed)).isFalse();
        assertThat(UpstreamClient.worthRetrying("GET", timedOut)).isTrue();
        assertThat(UpstreamClient.worthRetrying("DELETE", reset)).isTrue();
        assertThat(UpstreamClient.worthRetrying("POST", UpstreamClient.failure(new ConnectTimeoutException("connect")))).isTrue();
        assertThat(UpstreamClient.worthRetrying("POST", UpstreamClient.failure(new ConnectionRequestTimeoutException("pool")))).isTrue();
        assertThat(UpstreamClient.worthRetrying("GET", new GatewayException(ErrorCode.TURN_BUDGET_EXHAUSTED, "spent"))).isFalse();
    }

    @Test
    void shouldTellWhetherAFailedCallMayHaveReachedOpenAi() {
        for (IOException reached : new IOException[] {new SocketTimeoutException("read"), new IOException("Connection reset")}) {
            GatewayException failure = UpstreamClient.failure(reached);
            assertThat(UpstreamClient.mayHaveReachedUpstream(failure.code(), failure.getCause())).as(reached.toString()).isTrue();
        }
        for (IOException neverSent : new IOException[] {new ConnectException("refused"), new ConnectTimeoutException("connect"),
                new ConnectionRequestTimeoutException("pool")}) {
            GatewayException failure = UpstreamClient.failure(neverSent);
            assertThat(UpstreamClient.mayHaveReachedUpstream(failure.code(), failure.getCause())).as(neverSent.toString()).isFalse();
        }
        assertThat(UpstreamClient.mayHaveReachedUpstream(ErrorCode.TURN_BUDGET_EXHAUSTED, null)).isFalse();
    }

    @Test
    void shouldRetryARefusedConnectionThenFailAndGiveBackTheTeamSlot() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        UpstreamProperties properties = new UpstreamProperties(URI.create("http://127.0.0.1:" + closedPort), "sk-test",
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), 4,
                new UpstreamProperties.Retry(3, Duration.ofMillis(1), Duration.ofSeconds(1)), false);
        BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
        bulkheads.addConfiguration(UpstreamClient.TEAM_BULKHEAD_CONFIG, BulkheadConfig.custom().maxConcurrentCalls(2).build());
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("upstream");
        try (UpstreamClient client = new UpstreamClient(new UpstreamTransport(properties.baseUrl(), "sk-test", properties),
                breaker, bulkheads, new UpstreamRetry(properties.retry()))) {
            UpstreamRequest post = new UpstreamRequest("analytics", "POST", "/v1/responses", Map.of(),
                    new UpstreamRequest.Bytes("{}".getBytes(), "application/json"), false);

            assertThatThrownBy(() -> client.send(post)).isInstanceOfSatisfying(GatewayException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_ERROR);
                assertThat(UpstreamClient.worthRetrying("POST", e)).as("a POST that never reached OpenAI may be sent again").isTrue();
            });
            assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(3);
            assertThat(bulkheads.bulkhead("team-analytics").getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
        }
    }
}
