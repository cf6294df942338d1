package com.sandboxgateway.support;

import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import com.sandboxgateway.config.PolicyProperties;

/**
 * Policies for plain unit tests: the settings given, bound with their defaults as the application binds them,
 * but without an application context.
 */
public final class Policies {

    /** The test profile's key, so policies that pseudonymize can be bound. */
    public static final String PSEUDONYMIZATION_KEY = "test-pseudonymization-key-0001";

    private Policies() {
    }

    /** The policy of {@code gateway.policy} settings such as {@code "org.network.allowed-domains=pypi.org"}. */
    public static PolicyProperties of(String... settings) {
        Map<String, String> properties = new HashMap<>();
        properties.put("gateway.policy.org.sanitization.pseudonymization-key", PSEUDONYMIZATION_KEY);
        for (String setting : settings) {
            int equals = setting.indexOf('=');
            properties.put("gateway.policy." + setting.substring(0, equals), setting.substring(equals + 1));
        }
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("gateway.policy", PolicyProperties.class);
    }
}
