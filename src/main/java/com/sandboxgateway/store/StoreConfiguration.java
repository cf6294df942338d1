package com.sandboxgateway.store;

import java.time.Clock;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The relational store's shared parts: one group commit for every durable write of the request path, its dialect, and
 * the pool answering at once while the database cannot be reached.
 */
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

    /**
     * The pool Spring Boot makes of {@code spring.datasource.*}, in a {@link FailFastDataSource} on the gateway's clock.
     */
    @Bean
    static BeanPostProcessor failFastDataSource(ObjectProvider<DatabaseProperties> properties,
                                                ObjectProvider<Clock> clock) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof DataSource pool && !(bean instanceof FailFastDataSource)
                        ? new FailFastDataSource(pool, properties.getObject().probeInterval(), clock.getObject())
                        : bean;
            }
        };
    }
}
