package com.sandboxgateway.containers;

import java.time.Duration;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.config.TeamPolicies;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Nothing uploaded lives forever: every file gets {@code expires_after} (the policy default when the
 * client sets none, capped at the maximum), every container an idle expiry capped at the team's
 * {@code max-idle-minutes}.
 */
public final class ExpiryRules implements RequestStep {

    private static final long OPENAI_MIN_FILE_SECONDS = 3600;
    private static final long OPENAI_MAX_FILE_SECONDS = 2_592_000;

    private final PolicyProperties.Files files;
    private final TeamPolicies policies;

    public ExpiryRules(PolicyProperties policy, TeamPolicies policies) {
        this.files = policy.org().files();
        this.policies = policies;
    }

    @Override
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        if (route == Route.FILES_UPLOAD && exchange.body() instanceof RequestBody.Multipart multipart) {
            long max = clamp(files.maxExpiry());
            multipart.upload().defaultField("expires_after[anchor]", "created_at");
            multipart.upload().defaultField("expires_after[seconds]", Long.toString(Math.min(max, clamp(files.defaultExpiry()))));
            multipart.upload().onField("expires_after[seconds]", requested -> Long.toString(Math.min(max, seconds(requested))));
        } else if (route == Route.CONTAINERS_CREATE) {
            capContainer(exchange, policies.of(exchange.principal().team()));
        }
        return Decision.PROCEED;
    }

    private static void capContainer(Exchange exchange, EffectivePolicy policy) {
        ObjectNode body = exchange.json();
        JsonNode minutes = body.path("expires_after").path("minutes");
        if (minutes.isNumber() && minutes.asLong() <= policy.maxIdleMinutes()) {
            return;
        }
        ObjectNode expiry = body.putObject("expires_after");
        expiry.put("anchor", "last_active_at");
        expiry.put("minutes", policy.maxIdleMinutes());
        exchange.jsonEdited();
    }

    private static long seconds(String requested) {
        try {
            return Long.parseLong(requested.strip());
        } catch (NumberFormatException e) {
            throw new GatewayException(ErrorCode.INVALID_REQUEST, "expires_after[seconds] must be a whole number of seconds.",
                    "expires_after[seconds]", null);
        }
    }

    private static long clamp(Duration duration) {
        return Math.max(OPENAI_MIN_FILE_SECONDS, Math.min(OPENAI_MAX_FILE_SECONDS, duration.toSeconds()));
    }
}
