package com.sandboxgateway.policy;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.upstream.SseEvent;

import tools.jackson.databind.JsonNode;

/**
 * Looks at what the upstream answered on the routes the chain table gives it ({@link Inspection}), before
 * the client gets it (to record ownership, audit executed
 * code, settle budgets). An inspector that throws {@link com.sandboxgateway.api.GatewayException}
 * keeps the answer from the client: the client gets that error instead.
 */
public interface ResponseInspector {

    /**
     * A successful (2xx) JSON answer, before it is relayed.
     *
     * @return the answer to relay: {@code body} itself, or a replacement (a filtered list, say)
     */
    default JsonNode onJson(Exchange exchange, JsonNode body) {
        return body;
    }

    /**
     * One event of a streamed answer, before it is relayed.
     *
     * @param data the event's parsed {@code data}, or {@code null} when it has none or it is not JSON
     */
    default void onEvent(Exchange exchange, SseEvent event, JsonNode data) {
    }

    /**
     * The exchange is over, however it ended: refused, failed, cut off or relayed in full. For what must
     * be closed whatever happened (a reservation nobody settled). Must not throw.
     *
     * @param failure the gateway error the client got, or {@code null} when it got the upstream's answer
     */
    default void onFinish(Exchange exchange, ErrorCode failure) {
    }
}
