package com.sandboxgateway.ownership;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;

/** A fresh ownership record in an in-memory database (the application's migrations), for plain unit tests of the steps that ask it. */
public final class Owners {

    private final JdbcClient jdbc;
    private final OwnershipStore store;
    private final Ownership ownership;

    private Owners() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(dataSource).load().migrate();
        this.jdbc = JdbcClient.create(dataSource);
        OwnershipProperties properties = new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ZERO);
        this.store = OwnershipStore.of(jdbc, dataSource, Clock.systemUTC(), properties);
        this.ownership = new Ownership(store, properties);
    }

    /** An empty record: nobody owns anything. */
    public static Owners none() {
        return new Owners();
    }

    /** Records {@code id} as {@code owner}'s. */
    public Owners owning(Principal owner, String id, ObjectKind kind) {
        store.record(id, kind, owner, null, null);
        return this;
    }

    public Ownership ownership() {
        return ownership;
    }

    /** The record itself, for tests of the parts that write it. */
    public OwnershipStore store() {
        return store;
    }

    /** Its database, for the tables beside the record (such as {@code file_use}). */
    public JdbcClient jdbc() {
        return jdbc;
    }
}
