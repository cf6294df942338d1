package com.sandboxgateway.store;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.transaction.support.TransactionTemplate;

/** The relational store's shared parts: one group commit for every durable write of the request path, and its dialect. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

    @Bean
    GroupCommit groupCommit(TransactionTemplate transactions, JdbcOperations jdbc, SqlDialect dialect) {
        return new GroupCommit(transactions, jdbc, dialect);
    }

    @Bean
    SqlDialect sqlDialect(DataSource dataSource) {
        return SqlDialect.of(dataSource);
    }
}
