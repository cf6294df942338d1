package com.sandboxgateway.proxy;

import com.sandboxgateway.api.ErrorCode;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code /v1} port's answer to requests Tomcat rejects: OpenAI's error shape, so the SDKs raise
 * their typed exceptions. Public for Tomcat, which creates it by class name.
 */
public final class OpenAiErrorReport extends ContainerErrorReport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    String contentType() {
        return "application/json";
    }

    @Override
    String body(int status) {
        ErrorCode code = status >= 500 ? ErrorCode.INTERNAL_ERROR : ErrorCode.INVALID_REQUEST;
        ObjectNode error = JSON.createObjectNode();
        error.put("message", MESSAGE);
        error.put("type", code.type());
        error.putNull("param");
        error.put("code", code.code());
        ObjectNode envelope = JSON.createObjectNode();
        envelope.set("error", error);
        return JSON.writeValueAsString(envelope);
    }
}
