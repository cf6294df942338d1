package com.sandboxgateway.ownership;

import java.time.Clock;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The owner records, kept where the gateway's database keeps them best ({@link OwnershipStore#of}). */
@Configuration(proxyBeanMethods = false)
class OwnershipConfiguration {

    @Bean
    OwnershipStore ownershipStore(JdbcClient jdbc, DataSource dataSource, Clock clock, OwnershipProperties properties) {
        return OwnershipStore.of(jdbc, dataSource, clock, properties);
    }
}
