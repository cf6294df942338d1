package com.sandboxgateway.auth;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.openai.errors.UnauthorizedException;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * Tokens of company identity providers: real RS256 tokens signed with key pairs made here, the issuers'
 * discovery documents and key sets (JWKS) served by WireMock. One issuer is found by OpenID discovery, the
 * other names its JWKS directly and rotates its key.
 */
class JwtAuthenticationTest extends GatewayIntegrationTest {

    private static final WireMockServer idp = new WireMockServer(wireMockConfig().dynamicPort());
    private static final RSAKey ACME_KEY = rsaKey("acme-1");
    private static final RSAKey ROTATING_OLD = rsaKey("rot-1");
    private static final RSAKey ROTATING_NEW = rsaKey("rot-2");
    private static final RSAKey STRANGER = rsaKey("acme-2");
    private static final String AUDIENCE = "sandbox-gateway";
    private static final String ROTATING_ISSUER = "https://rotating.example.com";

    static {
        idp.start();
        idp.stubFor(get("/realms/acme/.well-known/openid-configuration").willReturn(okJson(
                "{\"issuer\":\"" + acmeIssuer() + "\",\"jwks_uri\":\"" + idp.baseUrl() + "/realms/acme/jwks\"}")));
        idp.stubFor(get("/realms/acme/jwks").willReturn(okJson(new JWKSet(ACME_KEY.toPublicJWK()).toString())));
        idp.stubFor(get("/rotating/jwks").willReturn(okJson(new JWKSet(ROTATING_OLD.toPublicJWK()).toString())));
    }

    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void issuers(DynamicPropertyRegistry registry) {
        registry.add("gateway.auth.jwt.clock-skew", () -> "2m");
        registry.add("gateway.auth.jwt.issuers[0].issuer-uri", JwtAuthenticationTest::acmeIssuer);
        registry.add("gateway.auth.jwt.issuers[0].audiences", () -> AUDIENCE);
        registry.add("gateway.auth.jwt.issuers[0].roles-claim", () -> "groups");
        registry.add("gateway.auth.jwt.issuers[0].admin-role", () -> "gateway-admin");
        registry.add("gateway.auth.jwt.issuers[1].issuer-uri", () -> ROTATING_ISSUER);
        registry.add("gateway.auth.jwt.issuers[1].jwk-set-uri", () -> idp.baseUrl() + "/rotating/jwks");
        registry.add("gateway.auth.jwt.issuers[1].audiences", () -> "other-app," + AUDIENCE);
        registry.add("gateway.auth.jwt.issuers[1].user-claim", () -> "email");
        registry.add("gateway.auth.jwt.issuers[2].issuer-uri", () -> idp.baseUrl() + "/realms/gone");
        registry.add("gateway.auth.jwt.issuers[2].audiences", () -> AUDIENCE);
    }

    @Test
    void shouldServeTheUserAndTeamATokenNamesAndNeverSendTheTokenUpstream() {
        openAi.stubFor(get("/v1/files").willReturn(okJson("{\"object\":\"list\",\"data\":[],\"has_more\":false}")));
        String token = acmeToken(claims -> claims.subject("dana").claim("team", "analytics"));

        assertThat(sdk(token).files().list().data()).isEmpty();

        openAi.verify(getRequestedFor(urlEqualTo("/v1/files")).withHeader("Authorization", equalTo("Bearer " + ORG_KEY)));
    }

    @Test
    void shouldRefuseAnExpiredTokenAndOneNotValidYet() {
        Instant now = Instant.now();
        assertRefused(acmeToken(claims -> claims.subject("dana").claim("team", "analytics")
                .issueTime(Date.from(now.minus(Duration.ofHours(2)))).expirationTime(Date.from(now.minus(Duration.ofMinutes(5))))),
                "expired");
        assertRefused(acmeToken(claims -> claims.subject("dana").claim("team", "analytics")
                .notBeforeTime(Date.from(now.plus(Duration.ofMinutes(10))))), "used before");
        assertRefused(sign(ACME_KEY, base(acmeIssuer()).subject("dana").claim("team", "analytics").expirationTime(null).build()),
                "exp is required");
    }

    @Test
    void shouldAcceptATokenThatExpiredWithinTheClockSkew() {
        openAi.stubFor(get("/v1/files").willReturn(okJson("{\"object\":\"list\",\"data\":[],\"has_more\":false}")));
        Instant now = Instant.now();
        String token = acmeToken(claims -> claims.subject("dana").claim("team", "analytics")
                .issueTime(Date.from(now.minus(Duration.ofHours(1)))).expirationTime(Date.from(now.minus(Duration.ofSeconds(30)))));

        assertThat(sdk(token).files().list().data()).as("30 s late, within the 2 min skew").isEmpty();
    }

    @Test
    void shouldRefuseATokenForAnotherAudience() {
        assertRefused(sign(ACME_KEY, base(acmeIssuer()).audience("payroll").subject("dana").claim("team", "analytics").build()),
                "gateway.auth.jwt.issuers[0].audiences");
    }

    @Test
    void shouldRefuseATokenOfAnIssuerNotConfigured() {
        assertRefused(sign(ACME_KEY, base("https://login.evil.example").subject("dana").claim("team", "analytics").build()),
                "issuer (iss) is not one the gateway trusts");
    }

    @Test
    void shouldRefuseATokenSignedWithAKeyTheIssuerDoesNotPublish() {
        assertRefused(sign(STRANGER, base(acmeIssuer()).subject("mallory").claim("team", "analytics").build()),
                "signature could not be checked");
    }

    @Test
    void shouldRefuseATokenWhoseIssuersKeysCannotBeFound() {
        assertRefused(sign(ACME_KEY, base(idp.baseUrl() + "/realms/gone").subject("dana").claim("team", "analytics").build()),
                "could not be fetched");
    }

    @Test
    void shouldRefuseAnUnsignedToken() {
        String unsigned = new PlainJWT(base(acmeIssuer()).subject("mallory").claim("team", "analytics")
                .claim("groups", List.of("gateway-admin")).build()).serialize();

        assertRefused(unsigned, "not signed (alg none)");
    }

    @Test
    void shouldRefuseATokenSignedWithASharedSecretEvenTheIssuersPublicKey() throws Exception {
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(ACME_KEY.getKeyID()).build(),
                base(acmeIssuer()).subject("mallory").claim("team", "analytics").build());
        forged.sign(new MACSigner(ACME_KEY.toRSAPublicKey().getEncoded()));

        assertRefused(forged.serialize(), "signature could not be checked");
    }

    @Test
    void shouldRefuseATokenWithoutTheTeamClaimNamingTheClaim() {
        assertRefused(acmeToken(claims -> claims.subject("dana")), "no 'team' claim");
    }

    @Test
    void shouldPickUpARotatedSigningKey() {
        openAi.stubFor(get("/v1/files").willReturn(okJson("{\"object\":\"list\",\"data\":[],\"has_more\":false}")));
        String before = sign(ROTATING_OLD, base(ROTATING_ISSUER).claim("email", "erin@example.com").claim("team", "finance").build());
        assertThat(sdk(before).files().list().data()).isEmpty();
        assertThat(sdk(before).files().list().data()).as("the JWKS is cached, not fetched per request").isEmpty();

        idp.stubFor(get("/rotating/jwks").willReturn(okJson(new JWKSet(ROTATING_NEW.toPublicJWK()).toString())));
        String after = sign(ROTATING_NEW, base(ROTATING_ISSUER).claim("email", "erin@example.com").claim("team", "finance").build());

        assertThat(sdk(after).files().list().data()).isEmpty();
        idp.verify(2, getRequestedFor(urlEqualTo("/rotating/jwks")));
    }

    @Test
    void shouldLetOnlyATokenWithTheAdminRoleUseTheAdminEndpoints() throws Exception {
        String admin = acmeToken(claims -> claims.subject("ops").claim("team", "platform").claim("groups", List.of("staff", "gateway-admin")));
        String user = acmeToken(claims -> claims.subject("dana").claim("team", "analytics").claim("groups", "staff admin"));
        Instant now = Instant.now();
        String expiredAdmin = acmeToken(claims -> claims.subject("ops").claim("team", "platform").claim("groups", List.of("gateway-admin"))
                .issueTime(Date.from(now.minus(Duration.ofHours(1)))).expirationTime(Date.from(now.minus(Duration.ofMinutes(5)))));

        assertThat(admin("/actuator/policies", admin).statusCode()).isEqualTo(200);
        HttpResponse<String> reset = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + admin).DELETE(),
                "/actuator/ratelimits/alice", managementPort);
        assertThat(reset.statusCode()).isEqualTo(200);
        assertThat(admin("/actuator/audit?kind=ADMIN_ACTION&user=ops", admin).body())
                .as("the token's user and team are the audit's").contains("\"team\":\"platform\"").contains("reset_rate_limit");
        HttpResponse<String> forbidden = admin("/actuator/policies", user);
        assertThat(forbidden.statusCode()).as("'admin' of the identity provider is not the configured admin-role").isEqualTo(403);
        HttpResponse<String> expired = admin("/actuator/policies", expiredAdmin);
        assertThat(expired.statusCode()).isEqualTo(401);
        assertThat(expired.body()).contains("expired").doesNotContain(expiredAdmin);
    }

    private void assertRefused(String token, String reason) {
        assertThatThrownBy(() -> sdk(token).files().list()).isInstanceOfSatisfying(UnauthorizedException.class, e -> {
            assertThat(e.code()).hasValue("invalid_api_key");
            assertThat(e.getMessage()).contains(reason).doesNotContain(token);
        });
    }

    private HttpResponse<String> admin(String path, String token) throws Exception {
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + token).GET(), path, managementPort);
    }

    private HttpResponse<String> raw(HttpRequest.Builder request, String path, int port) throws Exception {
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
            return http.send(request.uri(java.net.URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static String acmeIssuer() {
        return idp.baseUrl() + "/realms/acme";
    }

    private static String acmeToken(Consumer<JWTClaimsSet.Builder> claims) {
        JWTClaimsSet.Builder builder = base(acmeIssuer());
        claims.accept(builder);
        return sign(ACME_KEY, builder.build());
    }

    /** Issuer, audience, issued now, valid for ten minutes. */
    private static JWTClaimsSet.Builder base(String issuer) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(issuer).audience(AUDIENCE).issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(10))));
    }

    private static String sign(RSAKey key, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RSAKey rsaKey(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
