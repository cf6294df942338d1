package com.sandboxgateway.tracing;

/**
 * Attribute names from the OpenTelemetry GenAI semantic conventions (and the gateway's own, under
 * {@code gateway.}) that the gateway's spans carry.
 */
final class SpanAttributes {

    static final String OPERATION = "gen_ai.operation.name";
    static final String PROVIDER = "gen_ai.provider.name";
    static final String REQUEST_MODEL = "gen_ai.request.model";
    static final String RESPONSE_MODEL = "gen_ai.response.model";
    static final String RESPONSE_ID = "gen_ai.response.id";
    static final String CONVERSATION = "gen_ai.conversation.id";
    static final String INPUT_TOKENS = "gen_ai.usage.input_tokens";
    static final String OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
    static final String TOOL_NAME = "gen_ai.tool.name";
    static final String TOOL_TYPE = "gen_ai.tool.type";
    static final String TOOL_CALL_ID = "gen_ai.tool.call.id";
    static final String ERROR_TYPE = "error.type";
    static final String HTTP_STATUS = "http.response.status_code";

    static final String TEAM = "gateway.team";
    static final String ROUTE = "gateway.route";
    static final String REQUEST_ID = "gateway.request_id";
    static final String REFUSAL = "gateway.refusal.code";
    static final String TURNS_RESERVED = "gateway.turns.reserved";
    static final String TURNS_EXECUTED = "gateway.turns.executed";
    static final String STEP = "gateway.policy.step";
    static final String STEP_OUTCOME = "gateway.policy.outcome";
    static final String CODE_STATUS = "gateway.code.status";

    private SpanAttributes() {
    }
}
