package com.sandboxgateway.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Set;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.upstream.SseEvent;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records every code block the sandbox executed, from whichever answer shows it first: a created,
 * fetched or cancelled response, or a stream's {@code response.output_item.done}. The record is
 * durable before the client sees the call (for streams: before the event that completes it is
 * relayed); a call already recorded is not recorded again.
 */
public final class CodeExecutionAuditor implements ResponseInspector {

    private static final Set<Route> INSPECTED = Set.of(Route.RESPONSES_CREATE, Route.RESPONSE_GET, Route.RESPONSE_CANCEL);
    /** Calls in these states ran to an end; running ones are recorded when an answer shows them finished. */
    private static final Set<String> FINISHED = Set.of("completed", "failed", "incomplete");

    private final AuditLog auditLog;
    private final JsonMapper json;
    private final Clock clock;
    private final int maxOutputChars;

    public CodeExecutionAuditor(AuditLog auditLog, JsonMapper json, Clock clock, int maxOutputChars) {
        this.auditLog = auditLog;
        this.json = json;
        this.clock = clock;
        this.maxOutputChars = maxOutputChars;
    }

    @Override
    public boolean inspects(Route route) {
        return INSPECTED.contains(route);
    }

    @Override
    public JsonNode onJson(Exchange exchange, JsonNode response) {
        recordResponse(exchange, response);
        return response;
    }

    @Override
    public void onEvent(Exchange exchange, SseEvent event, JsonNode data) {
        if (data == null) {
            return;
        }
        JsonNode response = data.get("response");
        if (response != null) {
            recordResponse(exchange, response);
        }
        if ("response.output_item.done".equals(data.path("type").asString(null))) {
            recordCall(exchange, data.path("item"));
        }
    }

    private void recordResponse(Exchange exchange, JsonNode response) {
        if (exchange.responseId() == null) {
            exchange.responseIdentified(response.path("id").asString(null), response.path("model").asString(null));
        }
        for (JsonNode item : response.path("output")) {
            recordCall(exchange, item);
        }
    }

    private void recordCall(Exchange exchange, JsonNode item) {
        if (!"code_interpreter_call".equals(item.path("type").asString(null))
                || !FINISHED.contains(item.path("status").asString(""))) {
            return;
        }
        String callId = item.path("id").asString(null);
        if (callId == null || !exchange.firstAuditOf(callId)) {
            return;
        }
        String code = item.path("code").asString("");
        String outputs = item.path("outputs").isMissingNode() || item.path("outputs").isNull()
                ? null : json.writeValueAsString(item.path("outputs"));
        boolean truncated = outputs != null && outputs.length() > maxOutputChars;
        auditLog.record(new AuditRecord(java.util.UUID.randomUUID().toString(), AuditRecord.Kind.CODE_EXECUTION, callId,
                exchange.requestId(), exchange.upstreamRequestId(), exchange.principal().user(), exchange.principal().team(),
                exchange.session(), exchange.responseId(), item.path("container_id").asString(null), exchange.model(),
                item.path("status").asString(), code, sha256(code), truncated ? outputs.substring(0, maxOutputChars) : outputs,
                truncated, truncated ? "{\"outputs_cap_chars\":" + maxOutputChars + "}" : null, clock.instant()));
    }

    private static String sha256(String code) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(code.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
