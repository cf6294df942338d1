package com.sandboxgateway.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.KeyLimits;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.auth.RuntimeKey;
import com.sandboxgateway.auth.RuntimeKeys;
import com.sandboxgateway.policy.EffectivePolicy;
import com.sandboxgateway.policy.TeamPolicies;

/**
 * {@code /actuator/keys} (admin role): gateway keys managed at run time. {@code POST} issues one (the key
 * is in that answer only), {@code GET} lists them beside the configured keys (read-only), {@code POST
 * /{id}/rotate} gives one a new value (the old one accepted for a grace period), {@code POST /{id}/limits}
 * replaces its limits, {@code DELETE /{id}} revokes it. Limits may only narrow the team's policy. Every
 * write is audited before it takes effect.
 */
@Component
@Endpoint(id = "keys")
class KeysEndpoint {

    private static final Set<String> ROLES = Set.of("user", Principal.ADMIN_ROLE);
    private static final Set<String> LIMIT_NAMES = Set.of("requestsPerMinute", "tools", "turnsPerSession");

    private final RuntimeKeys keys;
    private final ApiKeyAuthenticator authenticator;
    private final TeamPolicies teams;
    private final AdminActions actions;

    KeysEndpoint(RuntimeKeys keys, ApiKeyAuthenticator authenticator, TeamPolicies teams, AdminActions actions) {
        this.keys = keys;
        this.authenticator = authenticator;
        this.teams = teams;
        this.actions = actions;
    }

    /**
     * One key as listed: never the key itself, nor its hash.
     *
     * @param source {@code runtime}, or {@code config} for a key of {@code gateway.auth.keys} (read-only)
     * @param key the key in clear: only in the answer that issues or rotates it
     */
    record KeyView(String id, String source, boolean readOnly, String prefix, String user, String team, Set<String> roles,
                   Instant created, String createdBy, Instant expires, Instant revoked, Instant lastUsed,
                   Instant previousValidUntil, KeyLimits limits, String key) {

        static KeyView of(RuntimeKey key, String plaintext) {
            return new KeyView(key.id(), "runtime", false, key.prefix(), key.user(), key.team(), key.roles(), key.createdAt(),
                    key.createdBy(), key.expiresAt(), key.revokedAt(), key.lastUsedAt(), key.previousValidUntil(), key.limits(),
                    plaintext);
        }

        static KeyView of(ApiKeyAuthenticator.ConfiguredKey key) {
            return new KeyView(key.id(), "config", true, null, key.user(), key.team(), key.roles(), null, null, null, null,
                    null, null, KeyLimits.NONE, null);
        }
    }

    @ReadOperation
    List<KeyView> list() {
        List<KeyView> all = new ArrayList<>();
        authenticator.configuredKeys().forEach(key -> all.add(KeyView.of(key)));
        keys.all().forEach(key -> all.add(KeyView.of(key, null)));
        return all;
    }

    /** {@code null} (404) for an unknown id. */
    @ReadOperation
    KeyView key(@Selector String id) {
        return keys.find(id).map(key -> KeyView.of(key, null))
                .or(() -> authenticator.configuredKeys().stream().filter(key -> key.id().equals(id)).findFirst().map(KeyView::of))
                .orElse(null);
    }

    /**
     * Issues a key: {@code {"user", "team", "roles": ["user"], "expiresIn": "30d", "limits": {"requestsPerMinute",
     * "tools", "turnsPerSession"}}}; only user and team are required.
     */
    @WriteOperation
    WebEndpointResponse<Object> issue(String user, String team, @Nullable List<String> roles, @Nullable String expiresIn,
                                      @Nullable Map<String, Object> limits, SecurityContext admin) {
        try {
            require(user, "user");
            require(team, "team");
            Set<String> granted = roles == null || roles.isEmpty() ? Set.of("user") : Set.copyOf(roles);
            if (!ROLES.containsAll(granted)) {
                throw new IllegalArgumentException("roles may be 'user' and 'admin', not " + new TreeSet<>(granted));
            }
            Duration expiry = expiresIn == null ? null : positive(expiresIn, "expiresIn");
            KeyLimits narrowing = limits(limits == null ? Map.of() : limits, team);
            String id = keys.newId();
            Map<String, String> details = new LinkedHashMap<>(Map.of("action", "issue_key", "key", id, "user", user, "team", team,
                    "roles", String.join(",", new TreeSet<>(granted))));
            details.put("expiresIn", expiresIn == null ? "never" : expiresIn);
            details.put("limits", narrowing.toString());
            actions.record(admin, details);
            RuntimeKeys.Issued issued = keys.issue(id, user, team, granted, expiry, narrowing, adminName(admin));
            return ok(KeyView.of(issued.key(), issued.plaintext()));
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
    }

    /**
     * {@code POST /{id}/rotate} ({@code {"grace": "1h"}}, default {@code gateway.auth.runtime-keys.rotation-grace})
     * or {@code POST /{id}/limits} ({@code {"requestsPerMinute", "tools", "turnsPerSession"}}, each optional).
     */
    @WriteOperation
    WebEndpointResponse<Object> change(@Selector String id, @Selector String action, @Nullable String grace,
                                       @Nullable Integer requestsPerMinute, @Nullable List<String> tools,
                                       @Nullable Integer turnsPerSession, SecurityContext admin) {
        try {
            refuseConfigured(id);
            RuntimeKey key = keys.find(id).orElse(null);
            if (key == null) {
                return notFound(id);
            }
            return switch (action) {
                case "rotate" -> {
                    Duration graceperiod = grace == null ? null : positive(grace, "grace");
                    actions.record(admin, Map.of("action", "rotate_key", "key", id, "user", key.user(),
                            "grace", grace == null ? "default" : grace));
                    yield keys.rotate(id, graceperiod).<WebEndpointResponse<Object>>map(issued -> ok(KeyView.of(issued.key(), issued.plaintext())))
                            .orElseGet(() -> badRequest("Key " + id + " is revoked; issue a new one instead."));
                }
                case "limits" -> {
                    Map<String, Object> given = new LinkedHashMap<>();
                    given.put("requestsPerMinute", requestsPerMinute);
                    given.put("tools", tools);
                    given.put("turnsPerSession", turnsPerSession);
                    KeyLimits narrowing = limits(given, key.team());
                    actions.record(admin, Map.of("action", "limit_key", "key", id, "user", key.user(), "limits", narrowing.toString()));
                    yield keys.limit(id, narrowing).<WebEndpointResponse<Object>>map(limited -> ok(KeyView.of(limited, null)))
                            .orElseGet(() -> badRequest("Key " + id + " is revoked; its limits no longer matter."));
                }
                default -> badRequest("Use POST /actuator/keys/{id}/rotate or POST /actuator/keys/{id}/limits.");
            };
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
    }

    /** Revokes a key on every replica (within {@code gateway.auth.runtime-keys.cache-ttl}, at once with Redis). */
    @DeleteOperation
    WebEndpointResponse<Object> revoke(@Selector String id, SecurityContext admin) {
        try {
            refuseConfigured(id);
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
        RuntimeKey key = keys.find(id).orElse(null);
        if (key == null) {
            return notFound(id);
        }
        actions.record(admin, Map.of("action", "revoke_key", "key", id, "user", key.user()));
        return keys.revoke(id).<WebEndpointResponse<Object>>map(revoked -> ok(KeyView.of(revoked, null))).orElseGet(() -> notFound(id));
    }

    /** The key's limits, each of which must be within the team's policy (a key only narrows it). */
    private KeyLimits limits(Map<String, Object> given, String team) {
        Set<String> unknown = new TreeSet<>(given.keySet());
        unknown.removeAll(LIMIT_NAMES);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown limits " + unknown + "; a key may set " + new TreeSet<>(LIMIT_NAMES) + ".");
        }
        EffectivePolicy policy = teams.of(team);
        Integer rpm = atMost(given.get("requestsPerMinute"), policy.limits().requestsPerMinute(), "requestsPerMinute", team);
        Integer turns = atMost(given.get("turnsPerSession"), policy.limits().turnsPerSession(), "turnsPerSession", team);
        Set<String> tools = null;
        if (given.get("tools") instanceof Collection<?> names) {
            tools = new TreeSet<>();
            for (Object name : names) {
                if (!(name instanceof String tool) || !policy.allowedTools().contains(tool)) {
                    throw new IllegalArgumentException("limits.tools may only name tools team " + team + " may use "
                            + new TreeSet<>(policy.allowedTools()) + ", not '" + name + "'.");
                }
                tools.add(tool);
            }
        } else if (given.get("tools") != null) {
            throw new IllegalArgumentException("limits.tools must be a list of tool types.");
        }
        return new KeyLimits(rpm, tools, turns);
    }

    private static Integer atMost(Object value, int teamLimit, String name, String team) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Integer limit) || limit < 1 || limit > teamLimit) {
            throw new IllegalArgumentException("limits." + name + " must be a whole number from 1 to team " + team + "'s "
                    + teamLimit + ", not " + value + ": a key may only narrow its team's policy.");
        }
        return limit;
    }

    private void refuseConfigured(String id) {
        if (authenticator.configuredKeys().stream().anyMatch(key -> key.id().equals(id))) {
            throw new IllegalArgumentException("Key " + id + " is configured in gateway.auth.keys and is read-only here;"
                    + " change the configuration to rotate or remove it.");
        }
    }

    private static Duration positive(String text, String name) {
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " must be a duration such as 30d, 12h or PT15M, not '" + text + "'.");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, not '" + text + "'.");
        }
        return duration;
    }

    private static void require(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("'" + name + "' is required.");
        }
    }

    private static String adminName(SecurityContext admin) {
        return admin.getPrincipal() == null ? "unknown" : admin.getPrincipal().getName();
    }

    private static WebEndpointResponse<Object> ok(Object body) {
        return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
    }

    private static WebEndpointResponse<Object> notFound(String id) {
        return problem(HttpStatus.NOT_FOUND, "No key has the id " + id + "; GET /actuator/keys lists them.");
    }

    private static WebEndpointResponse<Object> badRequest(String detail) {
        return problem(HttpStatus.BAD_REQUEST, detail);
    }

    private static WebEndpointResponse<Object> problem(HttpStatus status, String detail) {
        return new WebEndpointResponse<>(ProblemDetail.forStatusAndDetail(status, detail), status.value());
    }
}
