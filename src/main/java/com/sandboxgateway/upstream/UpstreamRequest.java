package com.sandboxgateway.upstream;

import java.io.InputStream;
import java.util.Map;

/**
 * One call to make upstream. The path keeps the client's raw query string; the org key is added by
 * {@link UpstreamClient}, never taken from the client.
 *
 * @param team whose share of the upstream this call uses (the per-team concurrency cap)
 * @param headers extra headers to send (content negotiation and the like, never credentials)
 * @param streaming the answer is expected to be a long-lived event stream, so the exchange may stay silent for
 *        the stream idle timeout rather than the read timeout
 */
public record UpstreamRequest(String team, String method, String pathAndQuery, Map<String, String> headers, Body body,
                              boolean streaming) {

    public UpstreamRequest {
        headers = Map.copyOf(headers);
    }

    /** GET and DELETE may be sent again after a failure: repeating them changes nothing. */
    boolean idempotent() {
        return idempotent(method);
    }

    static boolean idempotent(String method) {
        return method.equals("GET") || method.equals("DELETE");
    }

    /** Whether the body can be sent a second time; a streamed upload is gone once sent. */
    boolean repeatable() {
        return !(body instanceof Stream);
    }

    /** What is sent as the request body. */
    public sealed interface Body {
    }

    /** No body. */
    public record NoBody() implements Body {
    }

    /** A body already in memory, such as a JSON request. */
    public record Bytes(byte[] content, String contentType) implements Body {
    }

    /** A body streamed from the client as it arrives; {@code length} is -1 when unknown (sent chunked). */
    public record Stream(InputStream content, long length, String contentType) implements Body {
    }
}
