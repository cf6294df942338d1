package com.sandboxgateway.audit;

import java.util.ArrayList;
import java.util.List;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.budget.SessionFailures;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.config.DomainName;
import com.sandboxgateway.config.EffectivePolicy;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.review.CallOutcome;
import com.sandboxgateway.review.CodeFlag;
import com.sandboxgateway.review.CodeRiskAnalyzer;
import com.sandboxgateway.review.HostPolicy;

import tools.jackson.databind.JsonNode;

/**
 * The review signals of one executed code block or shell call: the flags of a static look at its code,
 * with HTTP targets checked against what the session's container may reach, and whether it makes its
 * session run away (more failed blocks or calls in a row than {@code gateway.review.failure-streak}).
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

        /** The flags' names, for an {@link AuditRecord} (which orders them and keeps each once). */
        List<String> names() {
            return flags.stream().map(CodeFlag::flag).toList();
        }
    }

    /**
     * The session's failures in a row as the calls of one answer are judged in order. The audit trail holds the
     * count up to the previous answer; this answer's records are written together after its calls are judged, so
     * the count is read from the trail once (at the first failure) and carried on from call to call.
     */
    final class Streak {

        private final Exchange exchange;
        private Integer inARow;

        private Streak(Exchange exchange) {
            this.exchange = exchange;
        }

        private int after(CallOutcome outcome) {
            if (!outcome.isFailure()) {
                inARow = 0;
            } else {
                inARow = (inARow != null ? inARow : failures.inARowOrZero(exchange.principal().user(), exchange.session())) + 1;
            }
            return inARow;
        }
    }

    /** The streak the calls of one answer of this exchange are judged in. */
    Streak streak(Exchange exchange) {
        return new Streak(exchange);
    }

    /** A code-interpreter call's code, reviewed, and how it ended. */
    Result review(Streak streak, OutputItem call) {
        Exchange exchange = streak.exchange;
        return judged(streak, analyzer.analyze(call.code(), hosts(exchange, OpenAiFormat.CODE_INTERPRETER)), CallOutcome.ofItem(call));
    }

    /** A hosted shell call's commands, reviewed like a code block; its failures count in the same streak. */
    Result reviewShell(Streak streak, List<String> commands, CallOutcome outcome) {
        return judged(streak, analyzer.analyzeShell(commands, hosts(streak.exchange, OpenAiFormat.SHELL)), outcome);
    }

    private Result judged(Streak streak, List<CodeFlag> found, CallOutcome outcome) {
        List<CodeFlag> flags = new ArrayList<>(found);
        int inARow = streak.after(outcome);
        if (inARow == failureStreak + 1) {
            flags.add(new CodeFlag(RUNAWAY, FAILURES_DETAIL + inARow));
        }
        return new Result(List.copyOf(flags), outcome, inARow);
    }

    /**
     * What a container of this tool ({@code code_interpreter} or {@code shell}) may reach: the auto container
     * that the request's tool describes, by its {@code network_policy} (none or {@code disabled}: nothing)
     * within the team's allowlist; for a container the request does not describe, the team's allowlist
     * (empty: nothing). A request with both tools judges each tool's calls by that tool's own container.
     */
    private HostPolicy hosts(Exchange exchange, String tool) {
        EffectivePolicy team = teams.of(exchange.principal().team());
        if (team.allowedDomains().isEmpty()) {
            return HostPolicy.networkDisabled();
        }
        JsonNode container = autoContainer(exchange, tool);
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

    /** The auto container of the request's first tool of this type, or {@code null} when it names a container. */
    private static JsonNode autoContainer(Exchange exchange, String type) {
        if (exchange.route().route() != Route.RESPONSES_CREATE || exchange.json() == null) {
            return null;
        }
        return OpenAiFormat.autoContainer(exchange.json().path("tools"), type);
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
