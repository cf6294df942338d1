package com.sandboxgateway.proxy;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Writes gateway errors in OpenAI's error shape, so the official SDKs raise their typed exceptions. */
final class OpenAiErrors {

    private final JsonMapper json;

    OpenAiErrors(JsonMapper json) {
        this.json = json;
    }

    /** {@code {"error":{"message","type","param","code"}}} for a gateway error code. */
    byte[] body(ErrorCode code, String message, String param) {
        ObjectNode error = json.createObjectNode();
        error.put("message", message);
        error.put("type", code.type());
        error.put("param", param);
        error.put("code", code.code());
        ObjectNode envelope = json.createObjectNode();
        envelope.set("error", error);
        return json.writeValueAsBytes(envelope);
    }

    /** The same error as an SSE {@code error} event, for failures after a stream has started. */
    byte[] event(ErrorCode code, String message, long sequenceNumber) {
        ObjectNode event = json.createObjectNode();
        event.put("type", "error");
        event.put("code", code.code());
        event.put("message", message);
        event.putNull("param");
        event.put("sequence_number", sequenceNumber);
        return ("event: error\ndata: " + json.writeValueAsString(event) + "\n\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    void write(HttpServletResponse response, ErrorCode code, String message, String param, boolean shouldRetry) throws IOException {
        byte[] body = body(code, message, param);
        response.setStatus(code.status());
        response.setHeader(GatewayHeaders.SHOULD_RETRY, Boolean.toString(shouldRetry));
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
