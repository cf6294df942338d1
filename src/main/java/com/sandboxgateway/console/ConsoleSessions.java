package com.sandboxgateway.console;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.auth.Principal;

/**
 * Console sessions of this replica, in memory: a random token in an {@code HttpOnly}, {@code SameSite=Strict}
 * cookie names one, so the key a reviewer typed is never kept by the browser nor by the gateway. Only the
 * token's SHA-256 is held, so a heap dump yields no live session. Sessions end after
 * {@link ConsoleProperties#sessionIdleTimeout()} unused, {@link ConsoleProperties#sessionMaxAge()} after
 * login, on logout, and with the process.
 */
final class ConsoleSessions {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, Session> byTokenHash = new ConcurrentHashMap<>();
    private final ConsoleProperties properties;
    private final Clock clock;

    ConsoleSessions(ConsoleProperties properties, Clock clock) {
        this.properties = properties;
        this.clock = clock;
    }

    /** Starts a session for the admin and returns its cookie token. */
    String start(Principal admin) {
        Instant now = clock.instant();
        byTokenHash.values().removeIf(session -> session.expired(now, properties));
        String token = randomToken();
        byTokenHash.put(Sha256.hex(token), new Session(admin, randomToken(), now, now));
        return token;
    }

    /** The live session a cookie token names, its idle clock restarted; empty when unknown or expired. */
    Optional<ConsoleUser> resume(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Session resumed = byTokenHash.computeIfPresent(Sha256.hex(token),
                (hash, session) -> session.expired(now, properties) ? null : session.usedAt(now));
        return Optional.ofNullable(resumed).map(session -> new ConsoleUser(session.admin(), session.csrfToken()));
    }

    void end(String token) {
        if (token != null) {
            byTokenHash.remove(Sha256.hex(token));
        }
    }

    private static String randomToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private record Session(Principal admin, String csrfToken, Instant startedAt, Instant lastUsedAt) {

        boolean expired(Instant now, ConsoleProperties properties) {
            return now.isAfter(lastUsedAt.plus(properties.sessionIdleTimeout())) || now.isAfter(startedAt.plus(properties.sessionMaxAge()));
        }

        Session usedAt(Instant now) {
            return new Session(admin, csrfToken, startedAt, now);
        }
    }
}
