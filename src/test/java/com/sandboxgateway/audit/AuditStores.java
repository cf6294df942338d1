package com.sandboxgateway.audit;

import java.nio.file.Path;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.store.H2Maps;
import com.sandboxgateway.store.SqlDialect;
import com.sandboxgateway.support.LocalPostgres;

import tools.jackson.databind.json.JsonMapper;

/** Freshly migrated audit stores on the two supported databases, for tests without a Spring context. */
final class AuditStores {

    private AuditStores() {
    }

    static DataSource h2() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        return pooled(migrated(dataSource, null));
    }

    /** An H2 file in {@code directory}, as the gateway opens it, with {@code settings} (";KEY=VALUE") added to the URL. */
    static DataSource h2File(Path directory, String settings) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:file:" + directory.resolve("gateway") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE" + settings);
        return pooled(migrated(dataSource, null));
    }

    /** H2 outside its PostgreSQL mode (the benchmark's {@code jdbc:h2:mem:} URL): no {@code ON CONFLICT}. */
    static DataSource plainH2() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        return pooled(migrated(dataSource, null));
    }

    /** Pooled like the application's, so a test measures the store, not connection setup. */
    private static DataSource pooled(DataSource dataSource) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(dataSource);
        config.setMaximumPoolSize(10);
        config.setConnectionTimeout(2_000);
        return new HikariDataSource(config);
    }

    /** A new schema on the local PostgreSQL (127.0.0.1:5432), reached through {@code port} (a proxy, or 5432). */
    static DataSource postgres(String schema, int port) {
        LocalPostgres.recreateSchema(schema);
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(LocalPostgres.url(port) + "?currentSchema=" + schema + "&connectTimeout=2&socketTimeout=5");
        dataSource.setUser("postgres");
        migrated(admin(schema), schema);
        return pooled(dataSource);
    }

    /** An already migrated schema on the local PostgreSQL, pooled with {@code connections} (a benchmark replica). */
    static DataSource existingPostgres(String schema, int connections) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(LocalPostgres.URL + "?currentSchema=" + schema);
        dataSource.setUser("postgres");
        HikariConfig config = new HikariConfig();
        config.setDataSource(dataSource);
        config.setMaximumPoolSize(connections);
        return new HikariDataSource(config);
    }

    private static DataSource admin(String schema) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(LocalPostgres.URL + "?currentSchema=" + schema);
        dataSource.setUser("postgres");
        return dataSource;
    }

    private static DataSource migrated(DataSource dataSource, String schema) {
        var flyway = Flyway.configure().dataSource(dataSource);
        if (schema != null) {
            flyway.schemas(schema);
        }
        flyway.load().migrate();
        return dataSource;
    }

    /** The store a gateway makes on an H2 embedded in this JVM: in the file's maps, the tables' rows moved into them. */
    static EmbeddedAuditStore embedded(DataSource dataSource) {
        return new EmbeddedAuditStore(H2Maps.of(dataSource, EmbeddedAuditStore.Maps::open).orElseThrow(),
                new AuditChain(JsonMapper.builder().build())).movedFrom(JdbcClient.create(dataSource));
    }

    /** The tables' store of one replica (of several that may share the database). */
    static JdbcAuditStore store(DataSource dataSource) {
        JdbcClient jdbc = JdbcClient.create(dataSource);
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        SqlDialect dialect = SqlDialect.of(dataSource);
        return new JdbcAuditStore(jdbc, transactions, new GroupCommit(transactions, new JdbcTemplate(dataSource), dialect), dialect,
                new AuditChain(JsonMapper.builder().build()), new JdbcAuditTree(jdbc));
    }
}
