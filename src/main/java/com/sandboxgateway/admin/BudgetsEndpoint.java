package com.sandboxgateway.admin;

import java.util.Map;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.stereotype.Component;

import com.sandboxgateway.budget.Budgets;

/**
 * {@code /actuator/budgets} (admin role): {@code /teams/{team}} a team's spend of the day,
 * {@code /sessions/{user}/{session}} a session's turns; {@code DELETE} on either resets it.
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
            throw new InvalidEndpointRequestException("Use /actuator/budgets/teams/{team} or /actuator/budgets/sessions/{user}/{session}",
                    "unknown budget kind");
        }
    }
}
