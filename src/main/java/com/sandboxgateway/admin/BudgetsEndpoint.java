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
 * {@code /actuator/budgets} (admin role): {@code /teams/{team}} (or {@code ?team=}) a team's spend of the
 * day, {@code /sessions/{user}/{session}} (or {@code ?user=&session=}) a session's turns; {@code DELETE} on
 * either resets it.
 */
@Component
@Endpoint(id = "budgets")
class BudgetsEndpoint {

    private final Budgets budgets;
    private final AdminActions actions;

    BudgetsEndpoint(Budgets budgets, AdminActions actions) {
        this.budgets = budgets;
        this.actions = actions;
    }

    /** {@code ?team=} a team's spend, or {@code ?user=&session=} a session's turns. */
    @ReadOperation
    Object byQuery(@Nullable String team, @Nullable String user, @Nullable String session) {
        if (team != null) {
            return budgets.teamSpend(team);
        }
        if (user != null && session != null) {
            return budgets.sessionTurns(user, session).orElse(null);
        }
        throw badRequest();
    }

    /** {@code DELETE ?team=} or {@code DELETE ?user=&session=}: the same resets as the paths. */
    @DeleteOperation
    Object resetByQuery(@Nullable String team, @Nullable String user, @Nullable String session, SecurityContext admin) {
        if (team != null) {
            return resetTeam("teams", team, admin);
        }
        if (user != null && session != null) {
            return resetSession("sessions", user, session, admin);
        }
        throw badRequest();
    }

    @ReadOperation
    Budgets.TeamSpend team(@Selector String kind, @Selector String team) {
        expect(kind, "teams");
        return budgets.teamSpend(team);
    }

    @DeleteOperation
    Budgets.TeamSpend resetTeam(@Selector String kind, @Selector String team, SecurityContext admin) {
        expect(kind, "teams");
        actions.record(admin, Map.of("action", "reset_team_spend", "team", team));
        return budgets.resetTeamSpend(team);
    }

    /** {@code null} (404) when the user has no such session. */
    @ReadOperation
    Budgets.SessionTurns session(@Selector String kind, @Selector String user, @Selector String session) {
        expect(kind, "sessions");
        return budgets.sessionTurns(user, session).orElse(null);
    }

    @DeleteOperation
    Budgets.SessionTurns resetSession(@Selector String kind, @Selector String user, @Selector String session,
                                      SecurityContext admin) {
        expect(kind, "sessions");
        if (budgets.sessionTurns(user, session).isEmpty()) {
            return null;
        }
        actions.record(admin, Map.of("action", "reset_session_turns", "user", user, "session", session));
        return budgets.resetSession(user, session).orElse(null);
    }

    private static void expect(String kind, String expected) {
        if (!kind.equals(expected)) {
            throw badRequest();
        }
    }

    private static InvalidEndpointRequestException badRequest() {
        return new InvalidEndpointRequestException("Use /actuator/budgets/teams/{team} (or ?team=) or "
                + "/actuator/budgets/sessions/{user}/{session} (or ?user=&session=)", "unknown budget");
    }
}
