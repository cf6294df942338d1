package com.sandboxgateway.containers;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.config.DomainName;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.policy.input.InputPlaces;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Holds what a request asks of the sandbox to the caller's team policy: tool types, container memory
 * tiers and network allowlists (in {@code tools[].container}, a shell's {@code tools[].environment} and
 * {@code POST /v1/containers}), and no container file sent as model input.
 */
public final class ContainerRules implements RequestStep {

    /** The tool name that, beside {@code shell}, lets shell commands run on the client ({@code environment.type: local}). */
    private static final String SHELL_LOCAL = "shell-local";

    private final TeamPolicies policies;

    public ContainerRules(TeamPolicies policies) {
        this.policies = policies;
    }

    @Override
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        EffectivePolicy policy = policies.of(exchange.principal());
        ObjectNode body = exchange.json();
        if (route == Route.CONTAINERS_CREATE) {
            return container(body, "", policy);
        }
        JsonNode tools = body.path("tools");
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            String type = tool.path("type").asString("");
            if (!policy.allowedTools().contains(type)) {
                return Decision.reject(ErrorCode.TOOL_NOT_ALLOWED, "Your team may not use the tool type '" + type
                        + "'. Allowed: " + String.join(", ", new TreeSet<>(policy.allowedTools())) + ".", "tools[" + i + "].type");
            }
            Decision decision = "shell".equals(type) ? shellEnvironment(tool.path("environment"), "tools[" + i + "].environment", policy)
                    : tool.path("container").isObject() ? container(tool.path("container"), "tools[" + i + "].container.", policy)
                    : Decision.PROCEED;
            if (decision instanceof Decision.Reject) {
                return decision;
            }
        }
        return containerFilesAsInput(exchange);
    }

    /**
     * A hosted shell's auto container is held to the rules of code interpreter's; a referenced container's
     * owner is checked with the request's other ids. Commands run on the client's machine (an environment
     * of type {@code local}, or none) are out of the gateway's sight: only with {@code shell-local} allowed.
     */
    private static Decision shellEnvironment(JsonNode environment, String at, EffectivePolicy policy) {
        String type = environment.path("type").asString("local");
        if ("container_auto".equals(type)) {
            return container(environment, at + ".", policy);
        }
        if ("local".equals(type) && !policy.allowedTools().contains(SHELL_LOCAL)) {
            return Decision.reject(ErrorCode.TOOL_NOT_ALLOWED, "Your team may not run shell commands on the client's own machine"
                    + " (a shell environment of type 'local', or none): the gateway cannot see them. Use environment type"
                    + " 'container_auto' or 'container_reference', or ask the platform team to allow '" + SHELL_LOCAL + "'.",
                    at + ".type");
        }
        return Decision.PROCEED;
    }

    private static Decision container(JsonNode container, String at, EffectivePolicy policy) {
        String memory = container.path("memory_limit").asString("1g");
        if (!policy.allowedMemoryLimits().contains(memory)) {
            return Decision.reject(ErrorCode.MEMORY_LIMIT_NOT_ALLOWED, "Your team may not use containers with memory_limit '"
                    + memory + "'. Allowed: " + String.join(", ", new TreeSet<>(policy.allowedMemoryLimits())) + ".", at + "memory_limit");
        }
        JsonNode network = container.path("network_policy");
        if (network.isMissingNode() || network.isNull() || "disabled".equals(network.path("type").asString(null))) {
            return Decision.PROCEED;
        }
        if (!"allowlist".equals(network.path("type").asString(null))) {
            return Decision.reject(ErrorCode.DOMAIN_NOT_ALLOWED, "The network_policy type '" + network.path("type").asString("")
                    + "' is not one the gateway can check; use 'disabled' or 'allowlist'.", at + "network_policy.type");
        }
        if (policy.allowedDomains().isEmpty()) {
            return Decision.reject(ErrorCode.DOMAIN_NOT_ALLOWED,
                    "Your team may not open a container's network at all; use network_policy type 'disabled'.", at + "network_policy");
        }
        List<String> refused = new ArrayList<>();
        for (JsonNode entry : network.path("allowed_domains")) {
            String requested = entry.asString("");
            try {
                DomainName domain = DomainName.parse(requested);
                if (!policy.admits(domain)) {
                    refused.add(shown(requested) + " (not in your team's allowlist)");
                }
            } catch (IllegalArgumentException e) {
                refused.add(shown(requested) + " (" + e.getMessage() + ")");
            }
        }
        if (refused.isEmpty()) {
            return Decision.PROCEED;
        }
        Set<String> allowed = new TreeSet<>();
        policy.allowedDomains().forEach(domain -> allowed.add(domain.ascii()));
        return Decision.reject(ErrorCode.DOMAIN_NOT_ALLOWED, "network_policy.allowed_domains holds entries your team may not open: "
                + String.join("; ", refused) + ". Allowed: " + String.join(", ", allowed) + ".", at + "network_policy.allowed_domains");
    }

    /** Any file id the request walk found (message content, tool outputs, prompt variables) may not be a container file's. */
    private static Decision containerFilesAsInput(Exchange exchange) {
        for (InputPlaces.ObjectId id : exchange.inputs().ids()) {
            if (id.kind() == InputPlaces.Kind.FILE && id.id().startsWith("cfile_")) {
                return Decision.reject(ErrorCode.CONTAINER_FILE_NOT_INPUT_FILE, "input_file cannot carry a container file ("
                        + id.id() + "). Download it through GET /v1/containers/{container_id}/files/"
                        + "{file_id}/content, or give the container to the code_interpreter or shell tool.", id.path());
            }
        }
        return Decision.PROCEED;
    }

    /** Entries are echoed so users see what to fix, but never user info (it may hold a password). */
    private static String shown(String entry) {
        String visible = entry.contains("@") ? "…@" + entry.substring(entry.lastIndexOf('@') + 1) : entry;
        return "'" + (visible.length() > 80 ? visible.substring(0, 80) + "…" : visible) + "'";
    }
}
