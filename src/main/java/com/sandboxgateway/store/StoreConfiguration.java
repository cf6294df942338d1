package com.sandboxgateway.store;

import java.time.Clock;
import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.api.InvalidSettingException;

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

    /**
     * The dialect of the configured database, which is never an embedded H2 that other processes can reach too
     * ({@code AUTO_SERVER=TRUE}): the embedded database is one gateway's own (design.md §1.6). It keeps owner records,
     * charges and the audit trail in maps beside its tables ({@link H2Maps}), which another process would not see, and
     * whose appends no lock orders but that of this gateway's store.
     */
    @Bean
    SqlDialect sqlDialect(DataSource dataSource, Environment environment) {
        String url = environment.getProperty("spring.datasource.url", "");
        if (url.startsWith("jdbc:h2:") && url.replace(" ", "").toUpperCase(Locale.ROOT).contains(";AUTO_SERVER=TRUE")) {
            throw new InvalidSettingException("spring.datasource.url", null,
                    "it sets H2's AUTO_SERVER=TRUE, which lets other processes write to the embedded database, "
                            + "but that database is one gateway's own",
                    "Remove AUTO_SERVER=TRUE. For several gateways, or tools that read the store while the gateway runs, "
                            + "point spring.datasource.url at PostgreSQL (docs/production.md).");
        }
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
