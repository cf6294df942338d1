package com.sandboxgateway.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.KeyLimits;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.auth.RuntimeKey;
import com.sandboxgateway.auth.RuntimeKeys;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.config.TeamPolicies;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /actuator/keys} (admin role): gateway keys managed at run time. {@code POST} issues one (the key is
 * in that answer only), {@code GET} lists them beside the configured keys (read-only), {@code POST
 * /{id}/rotate} gives one a new value (the old one accepted for a grace period), {@code POST /{id}/limits}
 * replaces its limits, {@code DELETE /{id}} revokes it. Limits may only narrow the team's policy. Every
 * write is audited before it takes effect; refusals are Problem Details.
 */
final class KeysHandlers {

    private static final Set<String> ROLES = Set.of("user", Principal.ADMIN_ROLE);

    private final RuntimeKeys keys;
    private final ApiKeyAuthenticator authenticator;
    private final TeamPolicies teams;
    private final AdminActions actions;
    private final JsonMapper json;

    KeysHandlers(RuntimeKeys keys, ApiKeyAuthenticator authenticator, TeamPolicies teams, AdminActions actions, JsonMapper json) {
        this.keys = keys;
        this.authenticator = authenticator;
        this.teams = teams;
        this.actions = actions;
        this.json = json;
    }

    /** {@code POST /actuator/keys}: only user and team are required; {@code expiresIn} like {@code 30d}, {@code 12h}, {@code PT15M}. */
    record IssueRequest(String user, String team, List<String> roles, String expiresIn, LimitsRequest limits) {
    }

    /** What a key narrows; each {@code null}: the team's. */
    record LimitsRequest(Integer requestsPerMinute, List<String> tools, Integer turnsPerSession) {
    }

    /** @param grace how long the old key stays accepted; default {@code gateway.auth.runtime-keys.rotation-grace} */
    record RotateRequest(String grace) {
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

    /** A request the routes refuse with a 400 and this message. */
    private static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    ServerResponse list(ServerRequest request) {
        List<KeyView> all = new ArrayList<>();
        authenticator.configuredKeys().forEach(key -> all.add(KeyView.of(key)));
        keys.all().forEach(key -> all.add(KeyView.of(key, null)));
        return ok(all);
    }

    ServerResponse key(ServerRequest request) {
        String id = request.pathVariable("id");
        return keys.find(id).map(key -> KeyView.of(key, null))
                .or(() -> authenticator.configuredKeys().stream().filter(key -> key.id().equals(id)).findFirst().map(KeyView::of))
                .map(KeysHandlers::ok).orElseGet(() -> notFound(id));
    }

    ServerResponse issue(ServerRequest request) {
        try {
            IssueRequest body = body(request, IssueRequest.class, "{\"user\", \"team\", \"roles\", \"expiresIn\", \"limits\"}");
            String user = required(body.user(), "user");
            String team = required(body.team(), "team");
            Set<String> roles = body.roles() == null || body.roles().isEmpty() ? Set.of("user") : Set.copyOf(body.roles());
            if (!ROLES.containsAll(roles)) {
                throw new Refused("roles may be 'user' and 'admin', not " + new TreeSet<>(roles) + ".");
            }
            Duration expiry = body.expiresIn() == null ? null : positive(body.expiresIn(), "expiresIn");
            KeyLimits limits = limits(body.limits(), team);
            String id = keys.newId();
            Map<String, String> details = new LinkedHashMap<>(Map.of("action", "issue_key", "key", id, "user", user, "team", team,
                    "roles", String.join(",", new TreeSet<>(roles))));
            details.put("expiresIn", body.expiresIn() == null ? "never" : body.expiresIn());
            details.put("limits", limits.toString());
            actions.record(admin(request), details);
            RuntimeKeys.Issued issued = keys.issue(id, user, team, roles, expiry, limits, adminName(request));
            return ok(KeyView.of(issued.key(), issued.plaintext()));
        } catch (Refused e) {
            return badRequest(e.getMessage());
        }
    }

    ServerResponse rotate(ServerRequest request) {
        String id = request.pathVariable("id");
        try {
            RuntimeKey key = existing(id);
            if (key == null) {
                return notFound(id);
            }
            RotateRequest body = request.headers().contentLength().orElse(0) == 0 ? new RotateRequest(null)
                    : body(request, RotateRequest.class, "{\"grace\": \"1h\"}");
            Duration grace = body.grace() == null ? null : positive(body.grace(), "grace");
            actions.record(admin(request), Map.of("action", "rotate_key", "key", id, "user", key.user(),
                    "grace", body.grace() == null ? "default" : body.grace()));
            return keys.rotate(id, grace).map(issued -> ok(KeyView.of(issued.key(), issued.plaintext())))
                    .orElseGet(() -> badRequest("Key " + id + " is revoked; issue a new one instead."));
        } catch (Refused e) {
            return badRequest(e.getMessage());
        }
    }

    ServerResponse limit(ServerRequest request) {
        String id = request.pathVariable("id");
        try {
            RuntimeKey key = existing(id);
            if (key == null) {
                return notFound(id);
            }
            KeyLimits limits = limits(body(request, LimitsRequest.class, "{\"requestsPerMinute\", \"tools\", \"turnsPerSession\"}"),
                    key.team());
            actions.record(admin(request), Map.of("action", "limit_key", "key", id, "user", key.user(), "limits", limits.toString()));
            return keys.limit(id, limits).map(limited -> ok(KeyView.of(limited, null)))
                    .orElseGet(() -> badRequest("Key " + id + " is revoked; its limits no longer matter."));
        } catch (Refused e) {
            return badRequest(e.getMessage());
        }
    }

    /** Revokes a key on every replica (within {@code gateway.auth.runtime-keys.cache-ttl}, at once with Redis). */
    ServerResponse revoke(ServerRequest request) {
        String id = request.pathVariable("id");
        try {
            RuntimeKey key = existing(id);
            if (key == null) {
                return notFound(id);
            }
            actions.record(admin(request), Map.of("action", "revoke_key", "key", id, "user", key.user()));
            return keys.revoke(id).map(revoked -> ok(KeyView.of(revoked, null))).orElseGet(() -> notFound(id));
        } catch (Refused e) {
            return badRequest(e.getMessage());
        }
    }

    /** The run-time key to change; a configured key is refused, as read-only. */
    private RuntimeKey existing(String id) {
        if (authenticator.configuredKeys().stream().anyMatch(key -> key.id().equals(id))) {
            throw new Refused("Key " + id + " is configured in gateway.auth.keys and is read-only here;"
                    + " change the configuration to rotate or remove it.");
        }
        return keys.find(id).orElse(null);
    }

    /** The key's limits, each within the team's policy: a key only narrows it. */
    private KeyLimits limits(LimitsRequest given, String team) {
        if (given == null) {
            return KeyLimits.NONE;
        }
        EffectivePolicy policy = teams.of(team);
        Integer rpm = atMost(given.requestsPerMinute(), policy.limits().requestsPerMinute(), "requestsPerMinute", team);
        Integer turns = atMost(given.turnsPerSession(), policy.limits().turnsPerSession(), "turnsPerSession", team);
        if (given.tools() != null) {
            for (String tool : given.tools()) {
                if (!policy.allowedTools().contains(tool)) {
                    throw new Refused("limits.tools may only name tools team " + team + " may use "
                            + new TreeSet<>(policy.allowedTools()) + ", not '" + tool + "'.");
                }
            }
        }
        return new KeyLimits(rpm, given.tools() == null ? null : Set.copyOf(given.tools()), turns);
    }

    private static Integer atMost(Integer value, int teamLimit, String name, String team) {
        if (value != null && (value < 1 || value > teamLimit)) {
            throw new Refused("limits." + name + " must be from 1 to team " + team + "'s " + teamLimit + ", not " + value
                    + ": a key may only narrow its team's policy.");
        }
        return value;
    }

    /** Unknown fields are refused: a misspelt limit must not pass as no limit. */
    private <T> T body(ServerRequest request, Class<T> type, String shape) {
        try {
            return json.readerFor(type).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(request.body(byte[].class));
        } catch (Exception e) {
            throw new Refused("The body must be a JSON object " + shape + " with no other fields.");
        }
    }

    private static Duration positive(String text, String name) {
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(text);
        } catch (IllegalArgumentException e) {
            throw new Refused(name + " must be a duration such as 30d, 12h or PT15M, not '" + text + "'.");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new Refused(name + " must be positive, not '" + text + "'.");
        }
        return duration;
    }

    private static String required(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new Refused("'" + name + "' is required.");
        }
        return value;
    }

    /** The admin {@link AdminAccessFilter} let through. */
    private static java.security.Principal admin(ServerRequest request) {
        return request.principal().orElse(null);
    }

    private static String adminName(ServerRequest request) {
        return request.principal().map(java.security.Principal::getName).orElse("unknown");
    }

    private static ServerResponse ok(Object body) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private static ServerResponse notFound(String id) {
        return problem(HttpStatus.NOT_FOUND, "No key has the id " + id + "; GET /actuator/keys lists them.");
    }

    private static ServerResponse badRequest(String detail) {
        return problem(HttpStatus.BAD_REQUEST, detail);
    }

    private static ServerResponse problem(HttpStatus status, String detail) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemDetail.forStatusAndDetail(status, detail));
    }
}
