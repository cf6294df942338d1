package com.sandboxgateway.auth;

import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Gateway keys and who they belong to.
 *
 * @param keys the accepted keys; each names its user, team and roles
 * @param allowPlainKeys accept entries that give the key in clear ({@code key:}); for development only
 */
@ConfigurationProperties("gateway.auth")
record AuthProperties(@DefaultValue List<KeyEntry> keys, boolean allowPlainKeys) {

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
    }
}
