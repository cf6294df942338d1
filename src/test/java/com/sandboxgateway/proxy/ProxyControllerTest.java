package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

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
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

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

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The {@code /v1} controller alone: a real policy chain whose one step says what the test scripts, the upstream,
 * the key check and tracing as test doubles. What the client sees of a refusal and of a forwarded call.
 */
@WebMvcTest(ProxyController.class)
class ProxyControllerTest {

    private static final String KEY = "Bearer sk-gw-test";

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ScriptedStep step;
    @MockitoBean
    private ApiKeyAuthenticator authenticator;
    @MockitoBean
    private UpstreamClient upstream;
    @MockitoBean
    private RequestTracing tracing;

    @BeforeEach
    void aliceCallsWithAKeyAndNothingIsTraced() {
        step.next = Decision.PROCEED;
        when(authenticator.require(KEY)).thenReturn(Exchanges.ALICE);
        when(tracing.upstreamCall(any())).thenReturn(mock(RequestTracing.UpstreamCall.class));
    }

    @Test
    void shouldAnswerARefusalInOpenAisErrorShapeWithItsStatusParamAndRetryHints() throws Exception {
        step.next = Decision.reject(ErrorCode.RATE_LIMIT_EXCEEDED, "Slow down.", "model").retryAfter(Duration.ofMillis(2500));

        mvc.perform(post("/v1/responses").header("Authorization", KEY).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"model\":\"gpt-5\",\"input\":\"hi\"}"))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(header().string("x-should-retry", "true"))
                .andExpect(header().exists("x-request-id"))
                .andExpect(jsonPath("$.error.message").value("Slow down."))
                .andExpect(jsonPath("$.error.type").value("rate_limit_error"))
                .andExpect(jsonPath("$.error.param").value("model"))
                .andExpect(jsonPath("$.error.code").value("rate_limit_exceeded"));
        verifyNoInteractions(upstream);
    }

    @Test
    void shouldTellTheClientNotToRetryAPolicyRefusal() throws Exception {
        step.next = Decision.reject(ErrorCode.SECRET_DETECTED, "A credential was found.", "input");

        mvc.perform(post("/v1/responses").header("Authorization", KEY).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"model\":\"gpt-5\",\"input\":\"hi\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(header().doesNotExist("Retry-After"))
                .andExpect(header().string("x-should-retry", "false"))
                .andExpect(jsonPath("$.error.code").value("secret_detected"))
                .andExpect(jsonPath("$.error.param").value("input"));
        verifyNoInteractions(upstream);
    }

    @Test
    void shouldForwardWhatTheChainLetThroughAndRelayTheAnswer() throws Exception {
        BasicClassicHttpResponse answer = new BasicClassicHttpResponse(200);
        answer.addHeader("x-request-id", "req_upstream_1");
        answer.setEntity(new StringEntity("{\"object\":\"list\",\"data\":[]}", ContentType.APPLICATION_JSON));
        when(upstream.send(any())).thenReturn(new UpstreamResponse(new HttpGet("/v1/files"), answer));

        mvc.perform(get("/v1/files?limit=2").header("Authorization", KEY))
                .andExpect(status().isOk())
                .andExpect(header().string("x-upstream-request-id", "req_upstream_1"))
                .andExpect(content().json("{\"object\":\"list\",\"data\":[]}"));

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
        step.seen = null;

        mvc.perform(get("/v1/files").header("Authorization", "Bearer sk-wrong"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.error.code").value("invalid_api_key"));
        assertThat(step.seen).isNull();
        verifyNoInteractions(upstream);
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

    /** What the slice lacks of the gateway: the controller's settings, a chain around the scripted step, a clock, a registry. */
    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({ProxyProperties.class, MetricsProperties.class})
    static class Chain {

        @Bean
        ScriptedStep scriptedStep() {
            return new ScriptedStep();
        }

        @Bean
        PolicyChain policyChain(ScriptedStep step) {
            return new PolicyChain(List.of(OnRoutes.always(step)), List.of(), List.of(), ChainObserver.NONE,
                    Exchanges.WITHOUT_TRANSACTIONS);
        }

        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
