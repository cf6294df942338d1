package com.sandboxgateway.proxy;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.InvalidCredentialsException;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.metrics.MeterFamily;
import com.sandboxgateway.metrics.MetricsProperties;
import com.sandboxgateway.multipart.MultipartUpload;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestRefused;
import com.sandboxgateway.tracing.RequestTracing;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamMetrics;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code /v1} surface. Every request takes the same one-way path: authenticate, match a route,
 * run the policy chain, call the upstream, relay the answer through the inspectors. Served by a servlet of its own
 * ({@link ProxyServletConfiguration}), since it takes the raw request and answer.
 */
@Component
class ProxyController {

    private static final Logger log = LoggerFactory.getLogger(ProxyController.class);
    /** What a client refused while the database is unreachable is told to wait: Hikari tries it again meanwhile. */
    private static final Duration STORE_RETRY_AFTER = Duration.ofSeconds(1);
    /** Client headers that may go upstream; credentials and org selectors never do. */
    private static final String[] FORWARDED_HEADERS = {"Accept", "OpenAI-Beta", "X-Client-Request-Id"};

    private final ApiKeyAuthenticator authenticator;
    private final RouteTable routes = new RouteTable();
    private final PolicyChain chain;
    private final UpstreamClient upstream;
    private final JsonMapper json;
    private final OpenAiErrors errors;
    private final RequestBodies bodies;
    private final ResponseRelay relay;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final boolean perUserMetrics;
    private final MeterFamily<Counter> requests;
    private final MeterFamily<Counter> refusals;
    private final MeterFamily<Timer> upstreamLatency;
    private final RequestTracing tracing;

    ProxyController(ApiKeyAuthenticator authenticator, PolicyChain chain, UpstreamClient upstream, JsonMapper json,
                    ProxyProperties properties, ApplicationEventPublisher events, Clock clock, MeterRegistry meters,
                    MetricsProperties metrics, RequestTracing tracing) {
        this.authenticator = authenticator;
        this.chain = chain;
        this.upstream = upstream;
        this.json = json;
        this.errors = new OpenAiErrors(json);
        this.bodies = new RequestBodies(json, properties.maxJsonBytes(), properties.uploadSpoolDir());
        this.relay = new ResponseRelay(json, errors, properties.maxJsonBytes());
        this.events = events;
        this.clock = clock;
        this.perUserMetrics = metrics.perUser();
        this.requests = perUserMetrics
                ? MeterFamily.counters(meters, ProxyMetrics.REQUESTS, "Requests answered on /v1", "route", "team", "status", "user")
                : MeterFamily.counters(meters, ProxyMetrics.REQUESTS, "Requests answered on /v1", "route", "team", "status");
        this.refusals = MeterFamily.counters(meters, ProxyMetrics.REFUSALS, null, "code", "team");
        this.upstreamLatency = MeterFamily.histogramTimers(meters, UpstreamMetrics.LATENCY,
                "Time until the upstream's answer began", "route");
        this.tracing = tracing;
    }

    void handle(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String requestId = RequestIds.next();
        response.setHeader(GatewayHeaders.REQUEST_ID, requestId);
        MDC.put("requestId", requestId);
        Optional<RouteMatch> route = routes.match(request.getMethod(), request.getRequestURI());
        Optional<Principal> principal = Optional.empty();
        try {
            try {
                principal = Optional.of(authenticator.require(request.getHeader("Authorization")));
            } catch (InvalidCredentialsException e) {
                answer(request, response, Decision.reject(ErrorCode.INVALID_API_KEY, e.getMessage()), null);
                return;
            }
            Refusal refusal = proxy(requestId, principal.get(), route, request, response);
            if (refusal != null) {
                response.setHeader(GatewayHeaders.REQUEST_ID, requestId);
                answer(request, response, refusal.reject(), refusal.cause());
                refusals.with(refusal.reject().code().code(), principal.get().team()).increment();
                events.publishEvent(new RequestRefused(requestId, principal.get(), request.getMethod(),
                        // A path that matched no route may hold anything a client typed: the audit keeps only that.
                        route.isPresent() ? request.getRequestURI() : "(no route)",
                        refusal.reject().code(), refusal.reject().message(), clock.instant()));
            }
        } finally {
            MDC.remove("requestId");
            countRequest(route, response, principal.orElse(null));
        }
    }

    /**
     * Why an authenticated request got a gateway error instead of the upstream's answer: a step's
     * refusal, or a fault (then {@code cause} says what failed, which decides whether a retry is safe).
     */
    private record Refusal(Decision.Reject reject, Throwable cause) {
    }

    /** {@code gateway.requests} by route, team and status (and user, when per-user metrics are on). */
    private void countRequest(Optional<RouteMatch> route, HttpServletResponse response, Principal principal) {
        String routeName = route.map(match -> match.route().name().toLowerCase(Locale.ROOT)).orElse("none");
        String team = principal == null ? "none" : principal.team();
        String status = Integer.toString(response.getStatus());
        Counter counter = perUserMetrics ? requests.with(routeName, team, status, principal == null ? "none" : principal.user())
                : requests.with(routeName, team, status);
        counter.increment();
    }

    /** Serves an authenticated request; the refusal to answer with, or {@code null} when the answer was relayed. */
    private Refusal proxy(String requestId, Principal principal, Optional<RouteMatch> matched, HttpServletRequest request,
                          HttpServletResponse response) throws IOException {
        if (matched.isEmpty()) {
            return new Refusal(Decision.reject(ErrorCode.ROUTE_NOT_ALLOWED, "The gateway does not serve " + request.getMethod()
                    + " on this path. It forwards the responses, files, containers and conversations routes of /v1 only."), null);
        }
        RequestBody body;
        try {
            body = bodies.read(matched.get().route(), request);
        } catch (GatewayException malformed) {
            return new Refusal(Decision.Reject.of(malformed), malformed.getCause());
        }
        Exchange exchange = new Exchange(requestId, principal, matched.get(), request.getRequestURI(), request.getQueryString(),
                request.getHeader(GatewayHeaders.SESSION), request.getHeader(GatewayHeaders.DATASET_PROFILE), body);
        Refusal refusal = null;
        try {
            if (chain.apply(exchange) instanceof Decision.Reject reject) {
                refusal = new Refusal(reject, null);
            } else {
                forward(exchange, request, response);
            }
        } catch (GatewayException fault) {
            refusal = new Refusal(Decision.Reject.of(fault), fault.getCause());
            if (exchange.upstreamStatus() == null && UpstreamClient.mayHaveReachedUpstream(fault.code(), fault.getCause())) {
                exchange.upstreamUnanswered();
            }
        } catch (DataAccessResourceFailureException | TransientDataAccessException | RecoverableDataAccessException
                 | CannotCreateTransactionException | TransactionSystemException storeDown) {
            // A read or write the request needs that has no fallback of its own (an owner row, a session's charge):
            // the database is down or saturated, which a retry a moment later may find over. Other database errors
            // (a statement the database refused) stay what they are: faults.
            log.warn("Request {} failed: the database could not be reached ({})", requestId, storeDown.getMessage());
            refusal = new Refusal(Decision.reject(ErrorCode.STATE_UNAVAILABLE, "The gateway cannot reach its database right "
                    + "now, so it cannot check or record what this request needs. Retry shortly.").retryAfter(STORE_RETRY_AFTER),
                    storeDown);
        } finally {
            chain.finish(exchange, refusal == null ? null : refusal.reject().code());
            exchange.responseHeaders().forEach((name, value) -> {
                if (!response.isCommitted()) {
                    response.setHeader(name, value);
                }
            });
            if (body instanceof RequestBody.Multipart multipart) {
                multipart.upload().close();
            }
        }
        return refusal;
    }

    private void forward(Exchange exchange, HttpServletRequest request, HttpServletResponse response) throws IOException {
        UpstreamRequest upstreamRequest = upstreamRequest(exchange, request);
        exchange.responseHeaders().forEach(response::setHeader);
        Timer.Sample sending = Timer.start();
        try (RequestTracing.UpstreamCall call = tracing.upstreamCall(exchange);
             UpstreamResponse answer = upstream.send(upstreamRequest)) {
            // Recorded while the call's span is current: its trace id becomes the histogram's exemplar.
            sending.stop(upstreamLatency.with(exchange.route().route().name().toLowerCase(Locale.ROOT)));
            call.answered(answer.status());
            exchange.upstreamAnswered(answer.status(), answer.header("x-request-id"));
            relay.relay(exchange, answer, chain, response);
        }
    }

    private UpstreamRequest upstreamRequest(Exchange exchange, HttpServletRequest request) {
        Map<String, String> headers = new HashMap<>();
        for (String name : FORWARDED_HEADERS) {
            String value = request.getHeader(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        UpstreamRequest.Body body = switch (exchange.body()) {
            case RequestBody.None none -> new UpstreamRequest.NoBody();
            case RequestBody.Json edited when exchange.bodyReplaced() ->
                    new UpstreamRequest.Bytes(json.writeValueAsBytes(edited.object()), "application/json");
            case RequestBody.Json asSent -> new UpstreamRequest.Bytes(asSent.raw(), "application/json");
            case RequestBody.Multipart multipart -> {
                MultipartUpload upload = multipart.upload();
                yield new UpstreamRequest.Stream(upload.body(), upload.length(), upload.contentType());
            }
        };
        return new UpstreamRequest(exchange.principal().team(), request.getMethod(), exchange.pathAndQuery(), headers,
                body, isStreamRequest(exchange));
    }

    private static boolean isStreamRequest(Exchange exchange) {
        if (exchange.json() != null) {
            return exchange.json().path("stream").asBoolean(false);
        }
        String query = exchange.rawQuery();
        return query != null && ("&" + query + "&").contains("&stream=true&");
    }

    /** The one place a refusal becomes the client's answer: OpenAI's error shape, {@code Retry-After}, {@code x-should-retry}. */
    private void answer(HttpServletRequest request, HttpServletResponse response, Decision.Reject refusal, Throwable cause)
            throws IOException {
        if (response.isCommitted()) {
            log.warn("Could not report {} to the client: the answer had already started", refusal.code().code());
            return;
        }
        log.info("Refused with {}: {}", refusal.code().code(), refusal.message());
        if (refusal.retryAfter() != null) {
            response.setHeader("Retry-After", Long.toString(Math.max(1, refusal.retryAfter().toSeconds())));
        }
        errors.write(response, refusal.code(), refusal.message(), refusal.param(),
                UpstreamClient.worthRetrying(request.getMethod(), refusal.code(), cause));
    }
}
