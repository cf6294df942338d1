package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.InvalidCredentialsException;
import com.sandboxgateway.metrics.MetricsProperties;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.OnRoutes;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.tracing.RequestTracing;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code /v1} controller alone, without Spring: a real policy chain whose one step says what the test scripts, the
 * upstream, the key check and tracing as test doubles. What the client sees of a refusal and of a forwarded call.
 */
class ProxyControllerTest {

    private static final String KEY = "Bearer sk-gw-test";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ScriptedStep step = new ScriptedStep();
    private final ApiKeyAuthenticator authenticator = mock(ApiKeyAuthenticator.class);
    private final UpstreamClient upstream = mock(UpstreamClient.class);
    private final RequestTracing tracing = mock(RequestTracing.class);
    private final ProxyController controller = new ProxyController(authenticator,
            new PolicyChain(List.of(OnRoutes.always(step)), List.of(), List.of(), ChainObserver.NONE, Exchanges.WITHOUT_TRANSACTIONS),
            upstream, JSON, new ProxyProperties(DataSize.ofMegabytes(64), null), event -> { }, Clock.systemUTC(),
            new SimpleMeterRegistry(), new MetricsProperties(false), tracing);

    @BeforeEach
    void aliceCallsWithAKeyAndNothingIsTraced() {
        when(authenticator.require(KEY)).thenReturn(Exchanges.ALICE);
        when(tracing.upstreamCall(any())).thenReturn(mock(RequestTracing.UpstreamCall.class));
    }

    @Test
    void shouldAnswerARefusalInOpenAisErrorShapeWithItsStatusParamAndRetryHints() throws Exception {
        step.next = Decision.reject(ErrorCode.RATE_LIMIT_EXCEEDED, "Slow down.", "model").retryAfter(Duration.ofMillis(2500));

        MockHttpServletResponse response = handle(createResponse());

        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(response.getHeader("Retry-After")).isEqualTo("2");
        assertThat(response.getHeader("x-should-retry")).isEqualTo("true");
        assertThat(response.getHeader("x-request-id")).isNotBlank();
        JsonNode error = JSON.readTree(response.getContentAsByteArray()).path("error");
        assertThat(error.path("message").asString()).isEqualTo("Slow down.");
        assertThat(error.path("type").asString()).isEqualTo("rate_limit_error");
        assertThat(error.path("param").asString()).isEqualTo("model");
        assertThat(error.path("code").asString()).isEqualTo("rate_limit_exceeded");
        verifyNoInteractions(upstream);
    }

    @Test
    void shouldTellTheClientNotToRetryAPolicyRefusal() throws Exception {
        step.next = Decision.reject(ErrorCode.SECRET_DETECTED, "A credential was found.", "input");

        MockHttpServletResponse response = handle(createResponse());

        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getHeader("Retry-After")).isNull();
        assertThat(response.getHeader("x-should-retry")).isEqualTo("false");
        JsonNode error = JSON.readTree(response.getContentAsByteArray()).path("error");
        assertThat(error.path("code").asString()).isEqualTo("secret_detected");
        assertThat(error.path("param").asString()).isEqualTo("input");
        verifyNoInteractions(upstream);
    }

    @Test
    void shouldForwardWhatTheChainLetThroughAndRelayTheAnswer() throws Exception {
        BasicClassicHttpResponse answer = new BasicClassicHttpResponse(200);
        answer.addHeader("x-request-id", "req_upstream_1");
        answer.setEntity(new StringEntity("{\"object\":\"list\",\"data\":[]}", ContentType.APPLICATION_JSON));
        when(upstream.send(any())).thenReturn(new UpstreamResponse(new HttpGet("/v1/files"), answer));
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/v1/files");
        request.setQueryString("limit=2");
        request.addHeader("Authorization", KEY);

        MockHttpServletResponse response = handle(request);

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getHeader("x-upstream-request-id")).isEqualTo("req_upstream_1");
        assertThat(JSON.readTree(response.getContentAsByteArray())).isEqualTo(JSON.readTree("{\"object\":\"list\",\"data\":[]}"));
        ArgumentCaptor<UpstreamRequest> sent = ArgumentCaptor.forClass(UpstreamRequest.class);
        verify(upstream).send(sent.capture());
        assertThat(sent.getValue().method()).isEqualTo("GET");
        assertThat(sent.getValue().pathAndQuery()).isEqualTo("/v1/files?limit=2");
        assertThat(sent.getValue().team()).isEqualTo("analytics");
        assertThat(sent.getValue().headers()).doesNotContainKey("Authorization");
        assertThat(step.seen.route().route().name()).isEqualTo("FILES_LIST");
    }

    @Test
    void shouldRefuseAnUnknownKeyBeforeAnyStepRuns() throws Exception {
        when(authenticator.require(eq("Bearer sk-wrong"))).thenThrow(new InvalidCredentialsException("The key is not known."));
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/v1/files");
        request.addHeader("Authorization", "Bearer sk-wrong");

        MockHttpServletResponse response = handle(request);

        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(JSON.readTree(response.getContentAsByteArray()).path("error").path("code").asString()).isEqualTo("invalid_api_key");
        assertThat(step.seen).isNull();
        verifyNoInteractions(upstream);
    }

    private static MockHttpServletRequest createResponse() {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/v1/responses");
        request.addHeader("Authorization", KEY);
        request.setContentType("application/json");
        request.setContent("{\"model\":\"gpt-5\",\"input\":\"hi\"}".getBytes(StandardCharsets.UTF_8));
        return request;
    }

    private MockHttpServletResponse handle(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        controller.handle(request, response);
        return response;
    }

    /** The chain's one step: decides what the test set, and keeps the exchange it saw. */
    static final class ScriptedStep implements RequestStep {

        private volatile Decision next = Decision.PROCEED;
        private volatile Exchange seen;

        @Override
        public Decision apply(Exchange exchange) {
            seen = exchange;
            return next;
        }
    }
}
