package com.sandboxgateway.proxy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.budget.UnfetchedResponses;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.databind.json.JsonMapper;

/**
 * Fetches, as their owners, the background responses created through the gateway that nobody has fetched finished
 * since: the code a background response ran is recorded, and its turns settled and its spend charged, when it is
 * fetched finished, so one its client never fetches again would otherwise have run unaudited. Each fetch takes the
 * path a client's {@code GET /v1/responses/{id}} takes (the policy chain before and after the upstream), and its
 * answer goes nowhere. A response still running is fetched again a pass later, up to its maximum age; one deleted
 * upstream is not fetched again.
 */
final class BackgroundResponseFetcher {

    private static final Logger log = LoggerFactory.getLogger(BackgroundResponseFetcher.class);
    /** The most responses one pass fetches; the rest wait for the next. */
    private static final int PER_PASS = 100;

    private final UnfetchedResponses unfetched;
    private final PolicyChain chain;
    private final UpstreamClient upstream;
    private final ResponseRelay relay;
    private final BackgroundResponsesProperties properties;
    private final RouteTable routes = new RouteTable();

    BackgroundResponseFetcher(UnfetchedResponses unfetched, PolicyChain chain, UpstreamClient upstream, JsonMapper json,
                              ProxyProperties proxy, BackgroundResponsesProperties properties) {
        this.unfetched = unfetched;
        this.chain = chain;
        this.upstream = upstream;
        this.relay = new ResponseRelay(json, new OpenAiErrors(json), proxy.maxJsonBytes());
        this.properties = properties;
    }

    /** One pass: fetches the responses due, one after another. @return how many it fetched */
    int fetchDue() {
        List<UnfetchedResponses.Unfetched> due = unfetched.take(properties.interval(), properties.maxAge(), PER_PASS);
        due.forEach(this::fetch);
        return due.size();
    }

    private void fetch(UnfetchedResponses.Unfetched response) {
        Principal owner = new Principal(response.user(), response.team(), Set.of());
        String path = "/v1/responses/" + response.responseId();
        Exchange exchange = new Exchange(RequestIds.next(), owner, routes.match("GET", path).orElseThrow(), path, null,
                null, null, new RequestBody.None());
        ErrorCode failure = null;
        try {
            if (chain.apply(exchange) instanceof Decision.Reject reject) {
                failure = reject.code();
                log.info("Background response {} was not fetched ({}); the next pass tries again", response.responseId(),
                        reject.code().code());
                return;
            }
            UpstreamRequest request = new UpstreamRequest(owner.team(), "GET", exchange.pathAndQuery(), Map.of(),
                    new UpstreamRequest.NoBody(), false);
            try (UpstreamResponse answer = upstream.send(request)) {
                exchange.upstreamAnswered(answer.status(), answer.header("x-request-id"));
                if (answer.status() / 100 == 2) {
                    relay.inspectedJson(exchange, answer, chain);
                } else if (answer.status() == 404) {
                    log.info("Background response {} no longer exists upstream (deleted); it is not fetched again",
                            response.responseId());
                    unfetched.forget(response.responseId());
                } else {
                    log.info("Background response {} was not fetched: the upstream answered {}; the next pass tries again",
                            response.responseId(), answer.status());
                }
            }
        } catch (RuntimeException e) {
            // A broken or malformed answer, the database: this response waits for the next pass, the others go on.
            failure = e instanceof GatewayException refused ? refused.code() : ErrorCode.INTERNAL_ERROR;
            log.warn("Background response {} could not be fetched; the next pass tries again: {}", response.responseId(),
                    e.toString());
        } finally {
            chain.finish(exchange, failure);
        }
    }
}
