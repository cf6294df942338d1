package com.sandboxgateway.ownership;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sandboxgateway.support.LocalPostgres;

/** Ownership isolation on PostgreSQL, the production store (the local server on 127.0.0.1:5432). */
@ActiveProfiles({"test", "postgres"})
class OwnershipIsolationPostgresTest extends OwnershipIsolationContract {

    @DynamicPropertySource
    static void freshSchema(DynamicPropertyRegistry registry) {
        LocalPostgres.recreateSchema();
    }
}
