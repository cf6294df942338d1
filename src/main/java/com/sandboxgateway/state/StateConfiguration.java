package com.sandboxgateway.state;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.lettuce.core.RedisURI;

/**
 * Connects to Redis when {@code gateway.state.backend} is {@code redis}, with the usual
 * {@code spring.data.redis.*} properties. Spring's own Redis auto-configuration is left out: the gateway
 * needs bounded, lazily opened connections, not a template.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DataRedisProperties.class)
class StateConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "gateway.state.backend", havingValue = "redis")
    RedisState redisState(DataRedisProperties redis, StateProperties state) {
        RedisState connections = new RedisState(uri(redis), state.timeout());
        connections.connectEarly();
        return connections;
    }

    private static RedisURI uri(DataRedisProperties redis) {
        if (redis.getUrl() != null) {
            return RedisURI.create(redis.getUrl());
        }
        RedisURI.Builder uri = RedisURI.builder().withHost(redis.getHost()).withPort(redis.getPort())
                .withDatabase(redis.getDatabase()).withSsl(redis.getSsl().isEnabled());
        if (redis.getPassword() != null) {
            uri = redis.getUsername() == null ? uri.withPassword(redis.getPassword().toCharArray())
                    : uri.withAuthentication(redis.getUsername(), redis.getPassword());
        }
        if (redis.getClientName() != null) {
            uri = uri.withClientName(redis.getClientName());
        }
        return uri.build();
    }
}
