package com.sandboxgateway.auth;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.api.Setting;

/**
 * Identity providers whose signed tokens (JWT) the gateway accepts beside its own keys.
 *
 * @param issuers the trusted issuers; a token is checked against the one its {@code iss} names
 * @param clockSkew tolerance on {@code exp} and {@code nbf} for clocks that drift apart
 * @param jwksCacheTtl how long an issuer's published keys (JWKS) are used before they are fetched again; a token
 *        whose {@code kid} is not among them fetches them at once, so a rotated key is picked up
 * @param jwksMinRefreshInterval at most two fetches of one JWKS per interval, so tokens with made-up {@code kid}s
 *        cannot make the gateway hammer the issuer
 */
@ConfigurationProperties("gateway.auth.jwt")
record JwtProperties(@DefaultValue List<Issuer> issuers, @DefaultValue("30s") Duration clockSkew,
                     @DefaultValue("5m") Duration jwksCacheTtl, @DefaultValue("30s") Duration jwksMinRefreshInterval) {

    JwtProperties {
        Set<String> issuerUris = new HashSet<>();
        for (int i = 0; i < issuers.size(); i++) {
            String where = "gateway.auth.jwt.issuers[" + i + "]";
            issuers.get(i).check(where);
            if (!issuerUris.add(issuers.get(i).issuerUri())) {
                throw new InvalidSettingException(where + ".issuer-uri", issuers.get(i).issuerUri(),
                        "it repeats an issuer configured before it", "List each issuer once; give it all its audiences there.");
            }
        }
        Setting.notNegative(clockSkew, "gateway.auth.jwt.clock-skew", "Set the tolerance on exp and nbf, e.g. 30s.");
        Setting.positive(jwksCacheTtl, "gateway.auth.jwt.jwks-cache-ttl", "Set how long an issuer's keys are used, e.g. 5m.");
        Setting.positive(jwksMinRefreshInterval, "gateway.auth.jwt.jwks-min-refresh-interval",
                "Set the interval in which one JWKS is fetched at most twice, e.g. 30s.");
    }

    /**
     * One trusted issuer and how its claims map to a gateway principal.
     *
     * @param issuerUri the {@code iss} its tokens carry; unless {@code jwkSetUri} is set, its keys are found through
     *        its OpenID discovery document ({@code <issuer-uri>/.well-known/openid-configuration}) on first use
     * @param jwkSetUri where its keys (JWKS) are published; skips discovery
     * @param audiences a token's {@code aud} must name at least one of these
     * @param userClaim the claim holding the user
     * @param teamClaim the claim holding the team; a token without it is refused
     * @param rolesClaim the claim holding roles (a list, or one string separated by spaces or commas)
     * @param adminRole the role that grants the gateway's admin role; none when unset
     */
    record Issuer(String issuerUri, String jwkSetUri, @DefaultValue List<String> audiences,
                  @DefaultValue("sub") String userClaim, @DefaultValue("team") String teamClaim,
                  @DefaultValue("roles") String rolesClaim, String adminRole) {

        /** Refuses an issuer whose tokens could not be told apart from another application's. */
        void check(String where) {
            if (issuerUri == null || issuerUri.isBlank()) {
                throw new InvalidSettingException(where + ".issuer-uri", null, "it is empty",
                        "Set the 'iss' its tokens carry (add 'jwk-set-uri' to skip OpenID discovery).");
            }
            if (audiences.isEmpty()) {
                throw new InvalidSettingException(where + ".audiences", null, "it is empty, so a token the issuer made for any "
                        + "other application would be accepted", "List the audiences ('aud') the gateway's tokens carry.");
            }
        }
    }
}
