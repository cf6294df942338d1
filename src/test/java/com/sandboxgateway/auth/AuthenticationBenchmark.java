package com.sandboxgateway.auth;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Set;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * What authenticating one request costs, by kind of bearer: a configured key (one SHA-256 and a map
 * look-up), a run-time key from the replica's cache, a run-time key read from the database (cache expired,
 * H2 in memory here), and an RS256 token (signature and claims checked, the JWKS cached).
 *
 * <p>Run: {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt &&
 * java -cp target/classes:target/test-classes:$(cat target/cp.txt) com.sandboxgateway.auth.AuthenticationBenchmark}
 */
public final class AuthenticationBenchmark {

    private static final int WARMUP = 5_000;
    private static final int MEASURED = 20_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:keys;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).load().migrate();
        KeyStore store = new KeyStore(JdbcClient.create(h2));
        RSAKey signing = new RSAKeyGenerator(2048).keyID("bench").generate();
        WireMockServer idp = new WireMockServer(wireMockConfig().dynamicPort());
        idp.start();
        try {
            idp.stubFor(get("/jwks").willReturn(okJson(new JWKSet(signing.toPublicJWK()).toString())));
            JwtProperties jwt = new JwtProperties(List.of(new JwtProperties.Issuer("https://idp.example", idp.baseUrl() + "/jwks",
                    List.of("gateway"), "sub", "team", "roles", null)), Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofSeconds(30));
            AuthProperties configured = new AuthProperties(List.of(new AuthProperties.KeyEntry(null, "sk-gw-bench-configured",
                    "alice", "analytics", Set.of("user"))), true);
            for (Duration cacheTtl : List.of(Duration.ofMinutes(10), Duration.ZERO)) {
                RuntimeKeys runtime = new RuntimeKeys(store, KeyChanges.NONE, new RuntimeKeyProperties(cacheTtl, Duration.ofHours(1)),
                        Clock.systemUTC());
                ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(configured, jwt, runtime, Clock.systemUTC());
                String issued = runtime.issue(runtime.newId(), "bob", "analytics", Set.of("user"), null, KeyLimits.NONE, "bench").plaintext();
                if (cacheTtl.isZero()) {
                    run("run-time key, database", authenticator, issued);
                } else {
                    run("configured key", authenticator, "sk-gw-bench-configured");
                    run("run-time key, cached", authenticator, issued);
                    run("RS256 token", authenticator, token(signing));
                }
            }
        } finally {
            idp.stop();
        }
    }

    private static void run(String name, ApiKeyAuthenticator authenticator, String bearer) {
        String header = "Bearer " + bearer;
        for (int i = 0; i < WARMUP; i++) {
            authenticator.require(header);
        }
        long[] nanos = new long[MEASURED];
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < MEASURED; i++) {
            long start = System.nanoTime();
            authenticator.require(header);
            nanos[i] = System.nanoTime() - start;
        }
        // CPU time as well: on a shared machine the wall-clock percentiles include waiting for a core.
        double cpuMicros = (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e3 / MEASURED;
        Arrays.sort(nanos);
        System.out.printf("%-24s p50 %8.1f µs   p99 %8.1f µs   CPU %8.2f µs per check%n", name, nanos[MEASURED / 2] / 1e3,
                nanos[(int) (MEASURED * 0.99)] / 1e3, cpuMicros);
    }

    private static String token(RSAKey key) throws Exception {
        Instant now = Instant.now();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                new JWTClaimsSet.Builder().issuer("https://idp.example").audience("gateway").subject("carol").claim("team", "analytics")
                        .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(Duration.ofHours(1)))).build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
