package com.sandboxgateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.junit.jupiter.api.Test;

class UpstreamRetryTest {

    private final UpstreamRetry retry = new UpstreamRetry(new UpstreamProperties.Retry(3, Duration.ofMillis(100), Duration.ofSeconds(10)));

    private static final UpstreamRequest GET = request("GET", new UpstreamRequest.NoBody());
    private static final UpstreamRequest POST_JSON = request("POST", new UpstreamRequest.Bytes(new byte[0], "application/json"));
    private static final UpstreamRequest POST_UPLOAD = request("POST",
            new UpstreamRequest.Stream(new ByteArrayInputStream(new byte[0]), 0, "multipart/form-data; boundary=x"));

    @Test
    void shouldRetryAnyRequestThatNeverReachedTheUpstream() {
        assertThat(retry.afterFailure(1, POST_JSON, new ConnectException("refused"))).isPresent();
        assertThat(retry.afterFailure(1, POST_UPLOAD, new ConnectTimeoutException("slow connect"))).isPresent();
    }

    @Test
    void shouldRetryBrokenConnectionsOnlyForReadsAndDeletes() {
        assertThat(retry.afterFailure(1, GET, new SocketException("reset"))).isPresent();
        assertThat(retry.afterFailure(1, POST_JSON, new SocketException("reset"))).isEmpty();
    }

    @Test
    void shouldNeverRetryATimeout() {
        assertThat(retry.afterFailure(1, GET, new SocketTimeoutException("read timed out"))).isEmpty();
    }

    @Test
    void shouldRetryServerErrorsOnlyForReadsAndDeletes() {
        assertThat(retry.afterAnswer(1, GET, answer(503, Map.of()))).isPresent();
        assertThat(retry.afterAnswer(1, POST_JSON, answer(500, Map.of()))).isEmpty();
        assertThat(retry.afterAnswer(1, GET, answer(501, Map.of()))).isEmpty();
    }

    @Test
    void shouldRetryA429WhoseBodyCanBeSentAgainWaitingWhatItAsks() {
        assertThat(retry.afterAnswer(1, POST_JSON, answer(429, Map.of("retry-after", "3")))).hasValue(Duration.ofSeconds(3));
        assertThat(retry.afterAnswer(1, POST_JSON, answer(429, Map.of("retry-after-ms", "1500")))).hasValue(Duration.ofMillis(1500));
        assertThat(retry.afterAnswer(1, POST_UPLOAD, answer(429, Map.of()))).isEmpty();
    }

    @Test
    void shouldGiveUpWhenTheUpstreamAsksTooMuchOrSaysNotTo() {
        assertThat(retry.afterAnswer(1, POST_JSON, answer(429, Map.of("retry-after", "11")))).isEmpty();
        assertThat(retry.afterAnswer(1, GET, answer(503, Map.of("x-should-retry", "false")))).isEmpty();
        assertThat(retry.afterAnswer(3, GET, answer(503, Map.of()))).isEmpty();
    }

    @Test
    void shouldBackOffWithJitterAroundADoublingWait() {
        for (int i = 0; i < 50; i++) {
            Duration first = retry.afterAnswer(1, GET, answer(503, Map.of())).orElseThrow();
            Duration second = retry.afterAnswer(2, GET, answer(503, Map.of())).orElseThrow();
            assertThat(first).isBetween(Duration.ofMillis(50), Duration.ofMillis(150));
            assertThat(second).isBetween(Duration.ofMillis(100), Duration.ofMillis(300));
        }
    }

    private static UpstreamRequest request(String method, UpstreamRequest.Body body) {
        return new UpstreamRequest("analytics", method, "/v1/files", Map.of(), body, false);
    }

    private static UpstreamResponse answer(int status, Map<String, String> headers) {
        BasicClassicHttpResponse response = new BasicClassicHttpResponse(status);
        headers.forEach(response::addHeader);
        return new UpstreamResponse(new HttpGet("/v1/files"), response);
    }
}
