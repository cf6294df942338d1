package com.sandboxgateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

/**
 * Turns an {@code Authorization: Bearer <key>} header into a {@link Principal}. Keys are held only as
 * SHA-256 hashes, so neither the configuration nor a heap dump reveals them.
 */
@Component
public class ApiKeyAuthenticator {

    private static final String BEARER = "Bearer ";
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

    private final Map<String, Principal> principalsByHash;

    ApiKeyAuthenticator(AuthProperties properties) {
        this.principalsByHash = index(properties);
    }

    /** The principal for an {@code Authorization} header value, or empty when it names no known key. */
    public Optional<Principal> authenticate(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        String key = authorization.substring(BEARER.length()).strip();
        return key.isEmpty() ? Optional.empty() : Optional.ofNullable(principalsByHash.get(sha256Hex(key)));
    }

    /** Hex SHA-256 of a key, as operators write it in {@code gateway.auth.keys[].sha256}. */
    /** The principal of a configured user, if any key belongs to that user. */
    public Optional<Principal> principalOf(String user) {
        return principalsByHash.values().stream().filter(principal -> principal.user().equals(user)).findFirst();
    }

    /** Every configured principal (one per key). */
    public Collection<Principal> principals() {
        return List.copyOf(principalsByHash.values());
    }

    public static String sha256Hex(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private static Map<String, Principal> index(AuthProperties properties) {
        Map<String, Principal> byHash = new HashMap<>();
        for (int i = 0; i < properties.keys().size(); i++) {
            AuthProperties.KeyEntry entry = properties.keys().get(i);
            String where = "gateway.auth.keys[" + i + "]";
            if (isBlank(entry.user()) || isBlank(entry.team())) {
                throw new IllegalStateException(where + " needs both 'user' and 'team'");
            }
            String hash = hashOf(entry, properties.allowPlainKeys(), where);
            if (byHash.putIfAbsent(hash, new Principal(entry.user(), entry.team(), entry.roles())) != null) {
                throw new IllegalStateException(where + " (user " + entry.user() + ") repeats a key configured before it");
            }
        }
        return Map.copyOf(byHash);
    }

    private static String hashOf(AuthProperties.KeyEntry entry, boolean allowPlainKeys, String where) {
        boolean hasHash = !isBlank(entry.sha256());
        boolean hasPlain = !isBlank(entry.key());
        if (hasHash == hasPlain) {
            throw new IllegalStateException(where + " (user " + entry.user() + ") needs exactly one of 'sha256' or 'key'");
        }
        if (hasPlain) {
            if (!allowPlainKeys) {
                throw new IllegalStateException(where + " (user " + entry.user()
                        + ") gives a plain 'key', which is refused unless gateway.auth.allow-plain-keys=true;"
                        + " configure its SHA-256 as 'sha256' instead");
            }
            return sha256Hex(entry.key());
        }
        if (!SHA256_HEX.matcher(entry.sha256()).matches()) {
            throw new IllegalStateException(where + " (user " + entry.user() + ") 'sha256' must be 64 hex characters");
        }
        return entry.sha256().toLowerCase(Locale.ROOT);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
