package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.support.TcpProxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The gateway on PostgreSQL, reached through a relay the test cuts: once the pool has waited out its connection
 * timeout for a database that refuses it, the requests that need the database are answered {@code 503} at once, the
 * pool waited for again only by one request each probe interval, and the gateway serves again once the database is
 * back.
 */
@DirtiesContext
class UnreachableDatabaseTest extends GatewayIntegrationTest {

    private static final String SCHEMA = "gateway_unreachable_test";
    private static TcpProxy database;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws IOException {
        LocalPostgres.recreateSchema(SCHEMA);
        database = new TcpProxy(LocalPostgres.PORT);
        registry.add("spring.datasource.url", () -> LocalPostgres.url(database.port()) + "?currentSchema=" + SCHEMA);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        registry.add("spring.flyway.schemas", () -> SCHEMA);
        registry.add("spring.datasource.hikari.connection-timeout", () -> "500");
        String spool = Files.createTempDirectory("unreachable-spool").toString();
        registry.add("gateway.audit.spool-dir", () -> spool);
        // One request every 2 s tries the unreachable database again; the others are answered at once.
        registry.add("gateway.database.probe-interval", () -> "2s");
    }

    @AfterAll
    static void closeRelay() throws IOException {
        database.close();
    }

    @Test
    void shouldAnswerAtOnceWhileTheDatabaseIsUnreachableAndServeAgainOnceItIsBack() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        assertThat(codeRunningResponse(ALICE_KEY, file).statusCode()).isEqualTo(200);

        database.cut();
        // The pool's connections are gone with the relay's; the first requests find out, one waits out the pool.
        for (int tries = 0; poolTimeouts().count() == 0; tries++) {
            assertThat(tries).as("requests before the pool timed out").isLessThan(20);
            assertThat(codeRunningResponse(ALICE_KEY, file).statusCode()).isEqualTo(503);
        }
        double waited = poolTimeouts().count();
        int answered = 0;
        long before = System.nanoTime();
        for (; answered < 20; answered++) {
            HttpResponse<String> refused = codeRunningResponse(ALICE_KEY, file);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("\"code\":\"state_unavailable\"");
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        }
        long probes = 1 + (System.nanoTime() - before) / 2_000_000_000L;
        assertThat(poolTimeouts().count() - waited).as("requests of %d that waited for the pool", answered)
                .isLessThanOrEqualTo(probes);

        database.start();
        HttpResponse<String> served = codeRunningResponse(ALICE_KEY, file);
        for (int tries = 0; served.statusCode() == 503 && tries < 100; tries++) {
            Thread.sleep(100);
            served = codeRunningResponse(ALICE_KEY, file);
        }
        assertThat(served.statusCode()).isEqualTo(200);
    }

    private Counter poolTimeouts() {
        Counter timeouts = meters.find("hikaricp.connections.timeout").counter();
        assertThat(timeouts).as("Hikari's timeout counter").isNotNull();
        return timeouts;
    }
}
