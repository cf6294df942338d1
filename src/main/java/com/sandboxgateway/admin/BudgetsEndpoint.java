package com.sandboxgateway.admin;

import java.util.Map;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

import com.sandboxgateway.budget.Budgets;

/**
 * {@code /actuator/budgets} (admin role): {@code /teams/{team}} a team's spend of the day,
 * {@code /sessions/{user}/{session}} a session's turns; {@code DELETE} on either resets it. Any part of the
 * subject may be given as a query parameter instead ({@code /teams?team=}, {@code ?user=&session=},
 * {@code /sessions/{user}?session=}); naming one part twice with two values is refused.
 */
@Component
@Endpoint(id = "budgets")
class BudgetsEndpoint {

    private static final String USAGE = "Use /actuator/budgets/teams/{team} (or ?team=) or "
            + "/actuator/budgets/sessions/{user}/{session} (or ?user=&session=)";

    private final Budgets budgets;
    private final AdminActions actions;

    BudgetsEndpoint(Budgets budgets, AdminActions actions) {
        this.budgets = budgets;
        this.actions = actions;
    }

    /** What a request names: a team's spend, or one user's session. */
    private record Subject(String team, String user, String session) {

        static Subject of(String[] path, String team, String user, String session) {
            String kind = path.length > 0 ? path[0] : team != null ? "teams" : "sessions";
            return switch (kind) {
                case "teams" -> {
                    PathOrQuery.atMost(path, 2, USAGE);
                    yield new Subject(PathOrQuery.once("team", PathOrQuery.segment(path, 1), team, USAGE), null, null);
                }
                case "sessions" -> {
                    PathOrQuery.atMost(path, 3, USAGE);
                    yield new Subject(null, PathOrQuery.once("user", PathOrQuery.segment(path, 1), user, USAGE),
                            PathOrQuery.once("session", PathOrQuery.segment(path, 2), session, USAGE));
                }
                default -> throw new InvalidEndpointRequestException("Unknown budget '" + kind + "'. " + USAGE, "unknown budget");
            };
        }
    }

    @ReadOperation
    Object byQuery(@Nullable String team, @Nullable String user, @Nullable String session) {
        return read(Subject.of(new String[0], team, user, session));
    }

    @ReadOperation
    Object byPath(@Selector(match = Selector.Match.ALL_REMAINING) String[] path, @Nullable String team, @Nullable String user,
                  @Nullable String session) {
        return read(Subject.of(path, team, user, session));
    }

    @DeleteOperation
    Object resetByQuery(@Nullable String team, @Nullable String user, @Nullable String session, SecurityContext admin) {
        return reset(Subject.of(new String[0], team, user, session), admin);
    }

    @DeleteOperation
    Object resetByPath(@Selector(match = Selector.Match.ALL_REMAINING) String[] path, @Nullable String team,
                       @Nullable String user, @Nullable String session, SecurityContext admin) {
        return reset(Subject.of(path, team, user, session), admin);
    }

    private Object read(Subject subject) {
        if (subject.team() != null) {
            return budgets.teamSpend(subject.team());
        }
        return budgets.sessionTurns(subject.user(), subject.session()).orElseThrow(() -> noSession(subject));
    }

    private Object reset(Subject subject, SecurityContext admin) {
        if (subject.team() != null) {
            actions.record(admin, Map.of("action", "reset_team_spend", "team", subject.team()));
            return budgets.resetTeamSpend(subject.team());
        }
        if (budgets.sessionTurns(subject.user(), subject.session()).isEmpty()) {
            throw noSession(subject);
        }
        actions.record(admin, Map.of("action", "reset_session_turns", "user", subject.user(), "session", subject.session()));
        return budgets.resetSession(subject.user(), subject.session()).orElseThrow(() -> noSession(subject));
    }

    private static AdminProblems.NotFound noSession(Subject subject) {
        return new AdminProblems.NotFound("User " + subject.user() + " has no session '" + subject.session()
                + "' with turns on record. Sessions appear once a response ran in them.");
    }
}
