package com.sandboxgateway.audit;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Asks the upstream for what executed code printed ({@code include: code_interpreter_call.outputs}),
 * which it leaves out by default, so the audit can keep it.
 */
public final class CodeOutputsRequested implements RequestStep {

    private static final String OUTPUTS = OpenAiFormat.CODE_OUTPUTS_INCLUDE;

    @Override
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        if (route == Route.RESPONSES_CREATE && !OpenAiFormat.codeInterpreterTools(exchange.json().path("tools")).isEmpty()) {
            ObjectNode body = exchange.json();
            JsonNode include = body.get("include");
            if (include == null || include.isNull()) {
                body.putArray("include").add(OUTPUTS);
                exchange.jsonEdited();
            } else if (include instanceof ArrayNode list && !contains(list)) {
                list.add(OUTPUTS);
                exchange.jsonEdited();
            }
        } else if (route == Route.RESPONSE_GET && (exchange.rawQuery() == null || !exchange.rawQuery().contains(OUTPUTS))) {
            exchange.addQueryParameter("include%5B%5D", OUTPUTS);
        }
        return Decision.PROCEED;
    }

    private static boolean contains(ArrayNode include) {
        for (JsonNode value : include) {
            if (OUTPUTS.equals(value.asString(null))) {
                return true;
            }
        }
        return false;
    }
}
