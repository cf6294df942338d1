package com.sandboxgateway.auth;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.InvalidSettingException;

/**
 * Gateway keys and who they belong to.
 *
 * @param keys the accepted keys; each names its user, team and roles
 * @param allowPlainKeys accept entries that give the key in clear ({@code key:}); for development only
 */
@ConfigurationProperties("gateway.auth")
record AuthProperties(@DefaultValue List<KeyEntry> keys, boolean allowPlainKeys) {

    AuthProperties {
        for (int i = 0; i < keys.size(); i++) {
            keys.get(i).check("gateway.auth.keys[" + i + "]", allowPlainKeys);
        }
    }

    /**
     * One gateway key.
     *
     * @param sha256 lower- or upper-case hex SHA-256 of the key the app presents (preferred)
     * @param key the key in clear; accepted only with {@code gateway.auth.allow-plain-keys=true}
     * @param user the user the key belongs to
     * @param team the team the user belongs to; policies and ownership scope follow it
     * @param roles roles granted; {@code admin} unlocks the admin actuator endpoints
     */
    record KeyEntry(String sha256, String key, String user, String team, @DefaultValue("user") Set<String> roles) {

        private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

        /** Refuses an entry without an owner, or without exactly one well-formed key; never shows the key or hash. */
        void check(String where, boolean allowPlainKeys) {
            if (isBlank(user) || isBlank(team)) {
                throw new InvalidSettingException(where, null, "every key needs both 'user' and 'team'",
                        "Set the user the key belongs to and that user's team.");
            }
            if (isBlank(sha256) == isBlank(key)) {
                throw new InvalidSettingException(where, null, "the key of user " + user + " needs exactly one of 'sha256' or 'key'",
                        "Configure the key's SHA-256 as 'sha256' (preferred), or the key itself as 'key' in development.");
            }
            if (!isBlank(key) && !allowPlainKeys) {
                throw new InvalidSettingException(where + ".key", null, "the key of user " + user
                        + " is given in clear, which is refused unless gateway.auth.allow-plain-keys=true",
                        "Configure its SHA-256 as 'sha256' instead.");
            }
            if (!isBlank(sha256) && !SHA256_HEX.matcher(sha256).matches()) {
                throw new InvalidSettingException(where + ".sha256", null, "the hash of user " + user
                        + "'s key must be 64 hex characters", "Set the SHA-256 of the key, e.g. from: printf %s \"$KEY\" | sha256sum");
            }
        }

        private static boolean isBlank(String s) {
            return s == null || s.isBlank();
        }
    }
}
