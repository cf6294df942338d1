package com.sandboxgateway.audit;

import java.util.ArrayList;
import java.util.List;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.policy.DomainName;
import com.sandboxgateway.policy.EffectivePolicy;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.TeamPolicies;
import com.sandboxgateway.review.CallOutcome;
import com.sandboxgateway.review.CodeFlag;
import com.sandboxgateway.review.CodeRiskAnalyzer;
import com.sandboxgateway.review.HostPolicy;

import tools.jackson.databind.JsonNode;

/**
 * The review signals of one executed code block: the flags of a static look at its code, with HTTP
 * targets checked against what the session's container may reach, and whether it makes its session run
 * away (more failed blocks in a row than {@code gateway.review.failure-streak}).
 */
final class CodeReview {

    static final String RUNAWAY = "runaway_session";
    private static final String FAILURES_DETAIL = "failed_in_a_row=";

    private final CodeRiskAnalyzer analyzer;
    private final TeamPolicies teams;
    private final SessionFailures failures;
    private final int failureStreak;

    CodeReview(CodeRiskAnalyzer analyzer, TeamPolicies teams, SessionFailures failures, int failureStreak) {
        this.analyzer = analyzer;
        this.teams = teams;
        this.failures = failures;
        this.failureStreak = failureStreak;
    }

    /**
     * @param flags what the code does, plus {@code runaway_session} on the block that crosses the streak
     * @param failuresInARow the session's failed blocks in a row, this one included (0 when it succeeded)
     */
    record Result(List<CodeFlag> flags, CallOutcome outcome, int failuresInARow) {

        List<String> names() {
            return flags.stream().map(CodeFlag::flag).distinct().sorted().toList();
        }
    }

    Result review(Exchange exchange, JsonNode call, String code) {
        List<CodeFlag> flags = new ArrayList<>(analyzer.analyze(code, hosts(exchange)));
        CallOutcome outcome = CallOutcome.ofItem(call);
        int inARow = outcome.isFailure() ? failures.inARowOrZero(exchange.principal().user(), exchange.session()) + 1 : 0;
        if (inARow == failureStreak + 1) {
            flags.add(new CodeFlag(RUNAWAY, FAILURES_DETAIL + inARow));
        }
        return new Result(List.copyOf(flags), outcome, inARow);
    }

    /**
     * What the block's container may reach: the request's auto container's {@code network_policy}
     * (none or {@code disabled}: nothing) within the team's allowlist; for a container the request does
     * not describe, the team's allowlist (empty: nothing).
     */
    private HostPolicy hosts(Exchange exchange) {
        EffectivePolicy team = teams.of(exchange.principal().team());
        if (team.allowedDomains().isEmpty()) {
            return HostPolicy.networkDisabled();
        }
        JsonNode container = autoContainer(exchange);
        if (container == null) {
            return HostPolicy.allowing(host -> admits(team.allowedDomains(), host));
        }
        JsonNode network = container.path("network_policy");
        if (!"allowlist".equals(network.path("type").asString(null))) {
            return HostPolicy.networkDisabled();
        }
        List<DomainName> requested = new ArrayList<>();
        for (JsonNode entry : network.path("allowed_domains")) {
            try {
                requested.add(DomainName.parse(entry.asString("")));
            } catch (IllegalArgumentException e) {
                // The container rules refused such entries before the request went upstream.
            }
        }
        return HostPolicy.allowing(host -> admits(team.allowedDomains(), host) && admits(requested, host));
    }

    private static JsonNode autoContainer(Exchange exchange) {
        if (exchange.route().route() != Route.RESPONSES_CREATE || exchange.json() == null) {
            return null;
        }
        return OpenAiFormat.autoContainer(exchange.json().path("tools"));
    }

    private static boolean admits(List<DomainName> allowlist, String host) {
        try {
            DomainName domain = DomainName.parse(host);
            return allowlist.stream().anyMatch(entry -> entry.admits(domain));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
