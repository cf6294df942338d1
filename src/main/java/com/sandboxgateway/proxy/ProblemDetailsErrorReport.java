package com.sandboxgateway.proxy;

import org.springframework.http.HttpStatus;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The management port's answer to requests Tomcat rejects: RFC 9457 Problem Details, like every other
 * error there. Public for Tomcat, which creates it by class name.
 */
public final class ProblemDetailsErrorReport extends ContainerErrorReport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    String contentType() {
        return "application/problem+json";
    }

    @Override
    String body(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        ObjectNode problem = JSON.createObjectNode();
        problem.put("type", "about:blank");
        problem.put("title", known == null ? "Error" : known.getReasonPhrase());
        problem.put("status", status);
        problem.put("detail", MESSAGE);
        return JSON.writeValueAsString(problem);
    }
}
