package com.sandboxgateway.secrets;

import java.time.Clock;
import java.util.function.Supplier;

import org.springframework.context.ApplicationEventPublisher;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Scans what a request tells the model and the sandbox: {@code instructions}, {@code input} (a string,
 * or every {@code input_text} part), and the {@code domain_secrets} values of any network policy.
 * Credentials block or are redacted; personal data in prompts is handled by the PII policy.
 */
public final class PromptGuard implements RequestStep {

    private final Supplier<TextGuard> guards;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    /** @param guards a fresh guard per request (it collects that request's findings) */
    public PromptGuard(Supplier<TextGuard> guards, ApplicationEventPublisher events, Clock clock) {
        this.guards = guards;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        if (route != Route.RESPONSES_CREATE && route != Route.CONTAINERS_CREATE) {
            return Decision.PROCEED;
        }
        TextGuard guard = guards.get();
        ObjectNode body = exchange.json();
        try {
            if (route == Route.RESPONSES_CREATE) {
                guardText(exchange, guard, body, "instructions", "instructions", true);
                guardInput(exchange, guard, body);
                JsonNode tools = body.path("tools");
                for (int i = 0; i < tools.size(); i++) {
                    guardDomainSecrets(exchange, guard, tools.get(i).path("container"), "tools[" + i + "].container.");
                }
            } else {
                guardDomainSecrets(exchange, guard, body, "");
            }
        } catch (GatewayException blocked) {
            events.publishEvent(new SensitiveDataFound(exchange.requestId(), exchange.principal(), guard.findings(), "blocked",
                    clock.instant()));
            return Decision.reject(blocked.code(), blocked.getMessage(), blocked.param());
        }
        if (!guard.findings().isEmpty()) {
            events.publishEvent(new SensitiveDataFound(exchange.requestId(), exchange.principal(), guard.findings(),
                    guard.handling(), clock.instant()));
        }
        return Decision.PROCEED;
    }

    private static void guardInput(Exchange exchange, TextGuard guard, ObjectNode body) {
        JsonNode input = body.get("input");
        if (input != null && input.isString()) {
            guardText(exchange, guard, body, "input", "input", true);
            return;
        }
        for (int i = 0; input != null && i < input.size(); i++) {
            if (!(input.get(i) instanceof ObjectNode item)) {
                continue;
            }
            JsonNode content = item.get("content");
            if (content != null && content.isString()) {
                guardText(exchange, guard, item, "content", "input[" + i + "].content", true);
            }
            for (int j = 0; content != null && content.isArray() && j < content.size(); j++) {
                if (content.get(j) instanceof ObjectNode part && "input_text".equals(part.path("type").asString(null))) {
                    guardText(exchange, guard, part, "text", "input[" + i + "].content[" + j + "]", true);
                }
            }
        }
    }

    private static void guardDomainSecrets(Exchange exchange, TextGuard guard, JsonNode container, String at) {
        JsonNode secrets = container.path("network_policy").path("domain_secrets");
        for (int k = 0; k < secrets.size(); k++) {
            if (secrets.get(k) instanceof ObjectNode secret) {
                guardText(exchange, guard, secret, "value", at + "network_policy.domain_secrets[" + k + "].value", false);
            }
        }
    }

    private static void guardText(Exchange exchange, TextGuard guard, ObjectNode holder, String field, String location,
                                  boolean personalData) {
        JsonNode value = holder.get(field);
        if (value == null || !value.isString()) {
            return;
        }
        String text = value.asString();
        CharSequence guarded;
        try {
            guarded = guard.guard(text, () -> location, personalData);
        } catch (GatewayException refused) {
            // The field is known here, so the SDK's error names it in param.
            throw new GatewayException(refused.code(), refused.getMessage(),
                    location.endsWith(field) ? location : location + "." + field, refused);
        }
        if (guarded != text) {
            holder.put(field, guarded.toString());
            exchange.jsonEdited();
        }
    }
}
