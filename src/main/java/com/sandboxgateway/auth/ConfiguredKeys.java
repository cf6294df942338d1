package com.sandboxgateway.auth;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The keys of the configuration file ({@code gateway.auth.keys}), held only as SHA-256 hashes, so neither
 * the configuration nor a heap dump reveals them. They change only with the configuration.
 */
final class ConfiguredKeys {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

    private final Map<String, Principal> principalsByHash;

    ConfiguredKeys(AuthProperties properties) {
        this.principalsByHash = index(properties);
    }

    Optional<Principal> byHash(String sha256) {
        return Optional.ofNullable(principalsByHash.get(sha256));
    }

    /** Every configured principal, by the hash of its key. */
    Map<String, Principal> all() {
        return principalsByHash;
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
            return ApiKeyAuthenticator.sha256Hex(entry.key());
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
