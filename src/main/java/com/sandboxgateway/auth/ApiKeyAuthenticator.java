package com.sandboxgateway.auth;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.stereotype.Component;

import com.nimbusds.jwt.JWT;

import com.sandboxgateway.api.Sha256;

/**
 * Turns an {@code Authorization: Bearer <...>} header into a {@link Principal}, on {@code /v1} and on the
 * management port alike. The bearer may be a gateway key of the configuration file, a key issued at run
 * time ({@link RuntimeKeys}), or a token of a configured identity provider (checked by
 * {@link JwtAuthenticator}); a bearer shaped like a JWT is only ever checked as one.
 */
@Component
public class ApiKeyAuthenticator {

    private static final String BEARER = "Bearer ";
    private static final String UNKNOWN = "Missing or unknown gateway key. Send 'Authorization: Bearer <gateway key>'"
            + " (or a token of your company's identity provider); ask your platform team for a key.";

    private final ConfiguredKeys configured;
    private final RuntimeKeys runtime;
    private final JwtAuthenticator tokens;

    ApiKeyAuthenticator(AuthProperties keys, JwtProperties jwt, RuntimeKeys runtime, Clock clock) {
        this.configured = new ConfiguredKeys(keys);
        this.runtime = runtime;
        this.tokens = new JwtAuthenticator(jwt, clock);
    }

    /** A configured key as the key listing shows it: read-only, identified by a short hash, never the key. */
    public record ConfiguredKey(String id, String user, String team, Set<String> roles) {
    }

    /**
     * The principal of an {@code Authorization} header value.
     *
     * @throws InvalidCredentialsException when it names no one, saying why (missing, unknown, revoked, an expired
     *         token, a token without the team claim, ...)
     */
    public Principal require(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw new InvalidCredentialsException(UNKNOWN);
        }
        String bearer = authorization.substring(BEARER.length()).strip();
        if (bearer.isEmpty()) {
            throw new InvalidCredentialsException(UNKNOWN);
        }
        JWT token = JwtAuthenticator.parse(bearer);
        if (token != null) {
            return tokens.authenticate(token, bearer);
        }
        return configured.byHash(Sha256.hex(bearer)).or(() -> runtime.authenticate(bearer))
                .orElseThrow(() -> new InvalidCredentialsException(UNKNOWN));
    }

    /** The principal for an {@code Authorization} header value, or empty when it names no one. */
    public Optional<Principal> authenticate(String authorization) {
        try {
            return Optional.of(require(authorization));
        } catch (InvalidCredentialsException e) {
            return Optional.empty();
        }
    }

    /** The principal of a user with a configured key, or else with a live run-time key, if any. */
    public Optional<Principal> principalOf(String user) {
        return configured.all().values().stream().filter(principal -> principal.user().equals(user)).findFirst()
                .or(() -> runtime.principalOf(user));
    }

    /** The principal of every configured key and every live run-time key (one per key). */
    public List<Principal> principals() {
        List<Principal> all = new ArrayList<>(configured.all().values());
        all.addAll(runtime.live());
        return all;
    }

    /** The keys of the configuration file, read-only. */
    public List<ConfiguredKey> configuredKeys() {
        List<ConfiguredKey> keys = new ArrayList<>();
        for (Map.Entry<String, Principal> entry : configured.all().entrySet()) {
            Principal principal = entry.getValue();
            keys.add(new ConfiguredKey("config-" + entry.getKey().substring(0, 12), principal.user(), principal.team(),
                    principal.roles()));
        }
        keys.sort((a, b) -> a.user().equals(b.user()) ? a.id().compareTo(b.id()) : a.user().compareTo(b.user()));
        return keys;
    }
}
