package com.sandboxgateway.admin;

import java.util.Map;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.ratelimit.RateLimiter;

/**
 * {@code /actuator/ratelimits} (admin role): every configured user's bucket; {@code /{user}} (or
 * {@code ?user=}) one of them; {@code DELETE} on either refills it.
 */
@Component
@Endpoint(id = "ratelimits")
class RateLimitsEndpoint {

    private static final String USAGE = "Use /actuator/ratelimits/{user} (or ?user=).";

    private final RateLimiter limiter;
    private final ApiKeyAuthenticator authenticator;
    private final TeamPolicies teams;
    private final AdminActions actions;

    RateLimitsEndpoint(RateLimiter limiter, ApiKeyAuthenticator authenticator, TeamPolicies teams, AdminActions actions) {
        this.limiter = limiter;
        this.authenticator = authenticator;
        this.teams = teams;
        this.actions = actions;
    }

    /** @param available requests the user may send at once right now */
    record UserBucket(String user, String team, int requestsPerMinute, int burst, int teamRequestsPerMinute, long available) {
    }

    /** Every configured user's bucket, or one user's with {@code ?user=}. */
    @ReadOperation
    Object users(@Nullable String user) {
        if (user != null) {
            return bucket(user);
        }
        return authenticator.principals().stream().map(Principal::user).distinct().sorted().map(this::bucket).toList();
    }

    @ReadOperation
    UserBucket user(@Selector(match = Selector.Match.ALL_REMAINING) String[] path, @Nullable String user) {
        PathOrQuery.atMost(path, 1, USAGE);
        return bucket(PathOrQuery.once("user", PathOrQuery.segment(path, 0), user, USAGE));
    }

    /** {@code DELETE /actuator/ratelimits?user=}: the same as {@code DELETE /actuator/ratelimits/{user}}. */
    @DeleteOperation
    UserBucket resetByQuery(@Nullable String user, SecurityContext admin) {
        return reset(PathOrQuery.once("user", null, user, USAGE), admin);
    }

    @DeleteOperation
    UserBucket resetByPath(@Selector(match = Selector.Match.ALL_REMAINING) String[] path, @Nullable String user,
                           SecurityContext admin) {
        PathOrQuery.atMost(path, 1, USAGE);
        return reset(PathOrQuery.once("user", PathOrQuery.segment(path, 0), user, USAGE), admin);
    }

    private UserBucket bucket(String user) {
        Principal principal = principal(user);
        EffectivePolicy.Limits limits = teams.of(principal.team()).limits();
        return new UserBucket(user, principal.team(), limits.requestsPerMinute(), limits.burst(), limits.teamRequestsPerMinute(),
                limiter.available(user, limits));
    }

    private UserBucket reset(String user, SecurityContext admin) {
        Principal principal = principal(user);
        actions.record(admin, Map.of("action", "reset_rate_limit", "user", user));
        limiter.reset(user, teams.of(principal.team()).limits());
        return bucket(user);
    }

    private Principal principal(String user) {
        return authenticator.principalOf(user).orElseThrow(() -> new AdminProblems.NotFound(
                "No gateway key belongs to user '" + user + "'; GET /actuator/ratelimits lists the users."));
    }
}
