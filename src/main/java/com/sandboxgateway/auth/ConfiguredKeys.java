package com.sandboxgateway.auth;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.api.Sha256;

/**
 * The keys of the configuration file ({@code gateway.auth.keys}), held only as SHA-256 hashes, so neither
 * the configuration nor a heap dump reveals them. They change only with the configuration.
 */
final class ConfiguredKeys {

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

    /** Each entry was checked as the settings were bound; only a key given twice shows once they are hashed. */
    private static Map<String, Principal> index(AuthProperties properties) {
        Map<String, Principal> byHash = new HashMap<>();
        for (int i = 0; i < properties.keys().size(); i++) {
            AuthProperties.KeyEntry entry = properties.keys().get(i);
            String hash = entry.key() != null && !entry.key().isBlank() ? Sha256.hex(entry.key())
                    : entry.sha256().toLowerCase(Locale.ROOT);
            if (byHash.putIfAbsent(hash, new Principal(entry.user(), entry.team(), entry.roles())) != null) {
                throw new InvalidSettingException("gateway.auth.keys[" + i + "]", null, "the key of user " + entry.user()
                        + " repeats a key configured before it", "Give each user a key of their own; remove the repeated entry.");
            }
        }
        return Map.copyOf(byHash);
    }
}
