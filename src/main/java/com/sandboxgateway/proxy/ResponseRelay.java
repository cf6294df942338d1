package com.sandboxgateway.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletResponse;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.upstream.SseEvent;
import com.sandboxgateway.upstream.SseEventReader;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Copies an upstream answer to the client in one of three ways: event streams event by event (each
 * inspected, then written; flushed, and what the written events staged settled unless it had to be before,
 * whenever the next event is not already here), JSON answers that inspectors want whole, and everything else
 * byte for byte as it arrives.
 */
final class ResponseRelay {

    /** Upstream headers worth relaying; hop-by-hop headers and OpenAI's org-wide rate limits are not. */
    private static final Set<String> RELAYED_HEADERS = Set.of("content-type", "content-disposition",
            "openai-processing-ms", "openai-version", "retry-after", "retry-after-ms", "x-should-retry");

    private final JsonMapper json;
    private final OpenAiErrors errors;
    private final int maxJsonBytes;

    ResponseRelay(JsonMapper json, OpenAiErrors errors, int maxJsonBytes) {
        this.json = json;
        this.errors = errors;
        this.maxJsonBytes = maxJsonBytes;
    }

    /** Relays the answer; {@code chain} sees each successful JSON answer and each event, parsed once, first. */
    void relay(Exchange exchange, UpstreamResponse upstream, PolicyChain chain, HttpServletResponse response)
            throws IOException {
        if (upstream.isEventStream()) {
            relayEvents(exchange, upstream, chain, response);
        } else if (isJson(upstream)) {
            relayJson(exchange, upstream, chain, response);
        } else {
            relayBytes(upstream, response);
        }
    }

    /**
     * Downloads stream through as they arrive. An upstream that breaks off before the first byte gets
     * a clean 502; one that breaks off midway cuts the client connection too, so a truncated file can
     * never pass for a complete one.
     */
    private void relayBytes(UpstreamResponse upstream, HttpServletResponse response) throws IOException {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = upstream.body()) {
            int read = readUpstream(in, buffer, upstream, response);
            copyHeaders(upstream, response);
            String length = upstream.header("Content-Length");
            if (length != null) {
                response.setHeader("Content-Length", length);
            }
            OutputStream out = response.getOutputStream();
            while (read >= 0) {
                out.write(buffer, 0, read);
                read = readUpstream(in, buffer, upstream, response);
            }
        }
    }

    private static int readUpstream(InputStream in, byte[] buffer, UpstreamResponse upstream, HttpServletResponse response) {
        try {
            return in.read(buffer);
        } catch (IOException e) {
            upstream.abort();
            if (response.isCommitted()) {
                throw new UpstreamBrokeOffException(e);
            }
            response.reset();
            throw UpstreamClient.failure(e);
        }
    }

    /**
     * JSON answers are read whole before anything is relayed, so a broken or malformed answer becomes
     * a clean 502 and inspectors see (and may replace) successful ones before the client does.
     */
    private void relayJson(Exchange exchange, UpstreamResponse upstream, PolicyChain chain, HttpServletResponse response)
            throws IOException {
        byte[] body = inspectedJson(exchange, upstream, chain);
        copyHeaders(upstream, response);
        exchange.responseHeaders().forEach(response::setHeader);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /**
     * A JSON answer read whole and, when successful, shown to {@code chain} (which may replace it): what to relay. A
     * broken or malformed answer is the {@code GatewayException} of a failed upstream.
     */
    byte[] inspectedJson(Exchange exchange, UpstreamResponse upstream, PolicyChain chain) {
        byte[] body;
        try {
            body = upstream.readBody(maxJsonBytes);
        } catch (IOException e) {
            throw UpstreamClient.failure(e);
        }
        return isSuccess(upstream.status()) ? inspected(exchange, body, chain) : body;
    }

    private byte[] inspected(Exchange exchange, byte[] body, PolicyChain chain) {
        JsonNode parsed;
        try {
            parsed = json.readTree(body);
        } catch (JacksonException e) {
            throw new GatewayException(ErrorCode.UPSTREAM_ERROR,
                    "The upstream API answered with malformed JSON. Retry later.", null, e);
        }
        Answer relayed = chain.answered(exchange, Answer.ofJson(parsed, OpenAiFormat.showsResponse(exchange.route().route())));
        return relayed.json() == parsed ? body : json.writeValueAsBytes(relayed.json());
    }

    private void relayEvents(Exchange exchange, UpstreamResponse upstream, PolicyChain chain, HttpServletResponse response)
            throws IOException {
        copyHeaders(upstream, response);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        OutputStream out = response.getOutputStream();
        response.flushBuffer();
        SseEventReader reader = new SseEventReader(upstream.body(), maxJsonBytes);
        Answer last = null;
        boolean written = false;
        boolean anyFlushed = false;
        while (true) {
            // Events the upstream sent together go out in one write; nothing written waits for the upstream, and the
            // first event (the response's id, what the client waits for) goes out alone.
            if (written && (!anyFlushed || !reader.hasBufferedEvent())) {
                if (!flushed(exchange, upstream, chain, out, last)) {
                    return;
                }
                written = false;
                anyFlushed = true;
            }
            SseEvent event;
            try {
                event = reader.next();
            } catch (IOException e) {
                GatewayException failure = UpstreamClient.failure(e);
                endWithError(out, upstream, failure.code(), idleOrBrokenMessage(failure.code()), last);
                return;
            }
            if (event == null || !event.complete()) {
                if (last == null || !last.endsStream()) {
                    endWithError(out, upstream, ErrorCode.UPSTREAM_ERROR,
                            "The upstream stream ended before the response finished. Retrieve the response to see its state.", last);
                }
                return;
            }
            Answer answer = Answer.ofEvent(event, parseData(event));
            try {
                chain.answered(exchange, answer);
            } catch (GatewayException e) {
                endWithError(out, upstream, e.code(), e.getMessage(), last);
                return;
            }
            last = answer;
            written = true;
            try {
                out.write(event.raw());
            } catch (IOException clientGone) {
                flushed(exchange, upstream, chain, out, last);
                return;
            }
        }
    }

    /**
     * Flushes the events written so far and settles what they staged, while the client reads them; false when that
     * ended the stream: the client went away (the upstream call is cancelled) or the settling failed (an error event
     * ended it).
     */
    private boolean flushed(Exchange exchange, UpstreamResponse upstream, PolicyChain chain, OutputStream out, Answer last) {
        boolean sent = flush(out);
        try {
            // Even for a client gone away: what the events staged (their owner rows) is written all the same.
            chain.relayed(exchange);
        } catch (GatewayException e) {
            endWithError(out, upstream, e.code(), e.getMessage(), last);
            return false;
        }
        if (!sent) {
            upstream.abort();
        }
        return sent;
    }

    private void endWithError(OutputStream out, UpstreamResponse upstream, ErrorCode code, String message, Answer last) {
        upstream.abort();
        send(out, errors.event(code, message, last == null ? 0 : last.sequenceNumber() + 1));
    }

    private static String idleOrBrokenMessage(ErrorCode code) {
        return code == ErrorCode.UPSTREAM_TIMEOUT
                ? "The upstream stream went silent for longer than the gateway waits. Retrieve the response to see its state."
                : "The upstream stream broke off. Retrieve the response to see its state.";
    }

    /** Writes and flushes; false when the client has gone away. */
    private static boolean send(OutputStream out, byte[] bytes) {
        try {
            out.write(bytes);
        } catch (IOException clientGone) {
            return false;
        }
        return flush(out);
    }

    /** False when the client has gone away. */
    private static boolean flush(OutputStream out) {
        try {
            out.flush();
            return true;
        } catch (IOException clientGone) {
            return false;
        }
    }

    private JsonNode parseData(SseEvent event) {
        if (event.data() == null || event.isDoneSentinel()) {
            return null;
        }
        try {
            return json.readTree(event.data());
        } catch (JacksonException e) {
            return null;
        }
    }

    private static void copyHeaders(UpstreamResponse upstream, HttpServletResponse response) {
        response.setStatus(upstream.status());
        for (Map.Entry<String, String> header : upstream.headers()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (RELAYED_HEADERS.contains(name)) {
                response.setHeader(header.getKey(), header.getValue());
            } else if (name.equals("x-request-id")) {
                response.setHeader(GatewayHeaders.UPSTREAM_REQUEST_ID, header.getValue());
            }
        }
    }

    private static boolean isSuccess(int status) {
        return status >= 200 && status < 300;
    }

    private static boolean isJson(UpstreamResponse upstream) {
        String contentType = upstream.header("Content-Type");
        return contentType != null && contentType.toLowerCase(Locale.ROOT).contains("json");
    }
}
