package com.sandboxgateway.auth;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Run-time keys in the database; replicas tell each other of key changes when a {@link KeyChanges} is available. */
@Configuration(proxyBeanMethods = false)
class AuthConfiguration {

    @Bean
    RuntimeKeys runtimeKeys(JdbcClient jdbc, RuntimeKeyProperties properties, Clock clock, ObjectProvider<KeyChanges> changes) {
        return new RuntimeKeys(new KeyStore(jdbc), changes.getIfAvailable(() -> KeyChanges.NONE), properties, clock);
    }
}
