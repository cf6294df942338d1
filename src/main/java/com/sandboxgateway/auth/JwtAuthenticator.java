package com.sandboxgateway.auth;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.text.ParseException;
import java.time.Clock;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtDecoderInitializationException;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierJwtDecoder;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;

/**
 * Checks bearer tokens of the configured issuers with Spring Security's JWT pieces (the decoder and
 * validators, not its filter chain): the signature against the issuer's published keys (fetched on
 * first use, cached, fetched again for an unknown {@code kid}), {@code iss}, {@code aud}, {@code exp}
 * (required) and {@code nbf} with a small clock skew. The token's claims then name the user, the team
 * (required) and whether the caller is an admin.
 */
final class JwtAuthenticator {

    /** Asymmetric only: an HMAC-signed token could be forged by anyone who knows the issuer's shared secret. */
    private static final Set<SignatureAlgorithm> ALGORITHMS = EnumSet.of(SignatureAlgorithm.RS256, SignatureAlgorithm.RS384,
            SignatureAlgorithm.RS512, SignatureAlgorithm.PS256, SignatureAlgorithm.PS384, SignatureAlgorithm.PS512,
            SignatureAlgorithm.ES256, SignatureAlgorithm.ES384, SignatureAlgorithm.ES512);
    private static final int HTTP_TIMEOUT_MILLIS = 2_000;
    private static final int JWKS_SIZE_LIMIT = 512 * 1024;
    private static final Logger log = LoggerFactory.getLogger(JwtAuthenticator.class);

    private record TrustedIssuer(String where, JwtProperties.Issuer settings, JwtDecoder decoder) {
    }

    private final Map<String, TrustedIssuer> byIssuer = new HashMap<>();

    JwtAuthenticator(JwtProperties properties, Clock clock) {
        ResourceRetriever retriever = new DefaultResourceRetriever(HTTP_TIMEOUT_MILLIS, HTTP_TIMEOUT_MILLIS, JWKS_SIZE_LIMIT);
        // Each issuer was checked, and told apart from the others, as the settings were bound.
        for (int i = 0; i < properties.issuers().size(); i++) {
            JwtProperties.Issuer issuer = properties.issuers().get(i);
            String where = "gateway.auth.jwt.issuers[" + i + "]";
            JwtDecoder decoder = new SupplierJwtDecoder(() -> decoder(issuer, where, properties, retriever, clock));
            byIssuer.put(issuer.issuerUri(), new TrustedIssuer(where, issuer, decoder));
        }
    }

    /**
     * The bearer parsed as a JWT (signed, encrypted, or {@code alg: none}), or {@code null} when it is not
     * one. Every JWT is then checked as a token, never looked up as a key.
     */
    static JWT parse(String bearer) {
        int firstDot = bearer.indexOf('.');
        if (firstDot < 0 || bearer.indexOf('.', firstDot + 1) < 0) {
            return null;
        }
        try {
            return JWTParser.parse(bearer);
        } catch (ParseException e) {
            return null;
        }
    }

    /** The principal a verified token names. */
    Principal authenticate(JWT parsed, String token) {
        if (parsed instanceof EncryptedJWT) {
            throw new InvalidCredentialsException("The token is encrypted (JWE); the gateway accepts signed tokens only.");
        }
        if (parsed instanceof PlainJWT) {
            throw new InvalidCredentialsException("The token is not signed (alg none); the gateway accepts only tokens"
                    + " signed by a configured issuer.");
        }
        TrustedIssuer issuer = byIssuer.get(issuerOf(parsed));
        if (issuer == null) {
            throw new InvalidCredentialsException("The token's issuer (iss) is not one the gateway trusts"
                    + " (gateway.auth.jwt.issuers); send a token of your company's identity provider, or a gateway key.");
        }
        Jwt jwt = decode(issuer, token);
        JwtProperties.Issuer settings = issuer.settings();
        String user = claim(jwt, settings.userClaim(), issuer.where() + ".user-claim", "the user");
        String team = claim(jwt, settings.teamClaim(), issuer.where() + ".team-claim", "the team whose policy applies");
        boolean admin = settings.adminRole() != null && roles(jwt.getClaim(settings.rolesClaim())).contains(settings.adminRole());
        // Only the admin role means anything to the gateway; other roles of the identity provider are not carried over.
        return new Principal(user, team, admin ? Set.of("user", Principal.ADMIN_ROLE) : Set.of("user"));
    }

    private static Jwt decode(TrustedIssuer issuer, String token) {
        try {
            return issuer.decoder().decode(token);
        } catch (JwtValidationException e) {
            String reasons = e.getErrors().stream().map(OAuth2Error::getDescription).collect(Collectors.joining("; "));
            throw new InvalidCredentialsException("The token was refused: " + reasons + ". Get a fresh token.");
        } catch (BadJwtException e) {
            if (e.getCause() instanceof BadJOSEException) {
                throw new InvalidCredentialsException("The token's signature could not be checked against the keys its issuer"
                        + " publishes (unknown key id, or an algorithm other than RS, PS or ES); get a fresh token.");
            }
            throw new InvalidCredentialsException("The token is malformed (" + e.getMessage() + "); get a fresh token.");
        } catch (JwtException | JwtDecoderInitializationException e) {
            log.warn("The keys of {} ({}) could not be fetched: {}", issuer.where(), issuer.settings().issuerUri(), e.getMessage());
            throw new InvalidCredentialsException("The keys of the token's issuer could not be fetched just now; try again shortly.");
        }
    }

    private static String issuerOf(JWT parsed) {
        try {
            return parsed.getJWTClaimsSet().getIssuer();
        } catch (ParseException e) {
            return null;
        }
    }

    private static String claim(Jwt jwt, String name, String setting, String what) {
        if (!(jwt.getClaims().get(name) instanceof String value) || value.isBlank()) {
            throw new InvalidCredentialsException("The token has no '" + name + "' claim, which must name " + what
                    + " (" + setting + "); ask for a token that carries it.");
        }
        return value;
    }

    private static Set<String> roles(Object claim) {
        if (claim instanceof Collection<?> values) {
            return values.stream().filter(String.class::isInstance).map(String.class::cast).collect(Collectors.toSet());
        }
        if (claim instanceof String joined) {
            return Arrays.stream(joined.split("[\\s,]+")).filter(role -> !role.isEmpty()).collect(Collectors.toSet());
        }
        return Set.of();
    }

    private static JwtDecoder decoder(JwtProperties.Issuer issuer, String where, JwtProperties properties,
                                      ResourceRetriever retriever, Clock clock) {
        URL jwkSetUrl = issuer.jwkSetUri() != null ? url(issuer.jwkSetUri()) : discoverJwkSet(issuer.issuerUri(), retriever);
        JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(jwkSetUrl, retriever)
                .cache(properties.jwksCacheTtl().toMillis(), JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT)
                .refreshAheadCache(false)
                .rateLimited(properties.jwksMinRefreshInterval().toMillis())
                // An identity provider that is briefly down does not lock everyone out: its last keys stay in use.
                .outageTolerant(true)
                .build();
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(keys).jwsAlgorithms(algorithms -> algorithms.addAll(ALGORITHMS))
                .build();
        JwtTimestampValidator timestamps = new JwtTimestampValidator(properties.clockSkew());
        timestamps.setAllowEmptyExpiryClaim(false);
        timestamps.setClock(clock);
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(List.of(timestamps,
                new JwtIssuerValidator(issuer.issuerUri()), audience(issuer.audiences(), where))));
        return decoder;
    }

    private static OAuth2TokenValidator<Jwt> audience(List<String> audiences, String where) {
        Set<String> accepted = new LinkedHashSet<>(audiences);
        OAuth2Error wrongAudience = new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN,
                "its audience (aud) names none of " + where + ".audiences", null);
        return jwt -> jwt.getAudience() != null && jwt.getAudience().stream().anyMatch(accepted::contains)
                ? OAuth2TokenValidatorResult.success() : OAuth2TokenValidatorResult.failure(wrongAudience);
    }

    /** The JWKS address from the issuer's OpenID discovery document, which must name the same issuer. */
    private static URL discoverJwkSet(String issuerUri, ResourceRetriever retriever) {
        URL discovery = url(issuerUri.replaceAll("/+$", "") + "/.well-known/openid-configuration");
        try {
            Map<String, Object> document = JSONObjectUtils.parse(retriever.retrieveResource(discovery).getContent());
            if (!issuerUri.equals(document.get("issuer")) || !(document.get("jwks_uri") instanceof String jwksUri)) {
                throw new IllegalStateException("the discovery document " + discovery + " names another issuer or no jwks_uri");
            }
            return url(jwksUri);
        } catch (IOException | ParseException e) {
            throw new IllegalStateException("could not read the discovery document " + discovery + ": " + e.getMessage(), e);
        }
    }

    private static URL url(String address) {
        try {
            return URI.create(address).toURL();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalStateException("not a URL: " + address, e);
        }
    }
}
