package com.sandboxgateway.auth;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.Setting;

/**
 * Keys issued at run time ({@code /actuator/keys}).
 *
 * @param cacheTtl how long a replica trusts what it read of a key; a change made on another replica (a revocation, a
 *        rotation, new limits) holds here after this at the latest. With {@code gateway.state.backend=redis} replicas
 *        are also told at once over Redis pub/sub, and this only covers a lost message
 * @param rotationGrace how long a rotated key's old value stays accepted, unless the rotation names its own grace
 */
@ConfigurationProperties("gateway.auth.runtime-keys")
record RuntimeKeyProperties(@DefaultValue("5s") Duration cacheTtl, @DefaultValue("24h") Duration rotationGrace) {

    RuntimeKeyProperties {
        Setting.notNegative(cacheTtl, "gateway.auth.runtime-keys.cache-ttl",
                "Set how long a replica may trust what it read of a key, e.g. 5s (0: read it on every request).");
        Setting.notNegative(rotationGrace, "gateway.auth.runtime-keys.rotation-grace",
                "Set how long a rotated key's old value stays accepted, e.g. 24h (0: not at all).");
    }
}
