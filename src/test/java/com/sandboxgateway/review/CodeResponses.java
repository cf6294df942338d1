package com.sandboxgateway.review;

import static com.sandboxgateway.support.OpenAiStub.example;

import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Completed responses whose one code-interpreter call ran the given code, for the review tests. */
final class CodeResponses {

    static final String TRACEBACK = "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
            + "FileNotFoundError: [Errno 2] No such file or directory: '/mnt/data/missing.csv'\n";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private CodeResponses() {
    }

    /** The contract's completed response with fresh ids, its call having run {@code code} and printed {@code logs}. */
    static String running(String code, String logs) {
        ObjectNode response = (ObjectNode) JSON.readTree(example("responses.create.response.completed.json"));
        response.put("id", "resp_" + id());
        ObjectNode call = (ObjectNode) response.path("output").get(0);
        call.put("id", "ci_" + id());
        call.put("container_id", "cntr_" + id());
        call.put("code", code);
        ((ObjectNode) call.path("outputs").get(0)).put("logs", logs);
        return JSON.writeValueAsString(response);
    }

    static String callId(String response) {
        JsonNode node = JSON.readTree(response);
        return node.path("output").get(0).path("id").asString();
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
