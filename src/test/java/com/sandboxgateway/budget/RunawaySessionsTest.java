package com.sandboxgateway.budget;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.support.Exchanges;

import tools.jackson.databind.json.JsonMapper;

/** The runaway check reads the failure streak the audit trail's latest code record of the session keeps. */
class RunawaySessionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void shouldLetASessionRunUntilItsStreakReachesTheLimit() {
        Decision twoFailed = stopAfter(3, streak(2)).apply(inSession("s-1"));

        assertThat(twoFailed).isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldStopASessionWhoseLastBlocksAllFailed() {
        assertRefused(stopAfter(3, streak(3)).apply(inSession("s-1")), ErrorCode.TURN_BUDGET_EXHAUSTED, null,
                "stopped after 3 consecutive failed code blocks");
    }

    @Test
    void shouldNotReadTheTrailWhenOffOrWithoutASession() {
        SessionFailures.LatestCodeRecord unread = (user, session) -> {
            throw new AssertionError("the audit trail was read");
        };

        assertThat(stopAfter(0, unread).apply(inSession("s-1"))).isEqualTo(Decision.PROCEED);
        assertThat(stopAfter(3, unread).apply(Exchanges.json(Route.RESPONSES_CREATE, "{\"input\":\"hi\"}")))
                .isEqualTo(Decision.PROCEED);
    }

    @Test
    void shouldRefuseWhenTheAuditTrailCannotBeRead() {
        SessionFailures.LatestCodeRecord down = (user, session) -> {
            throw new DataAccessResourceFailureException("audit store down");
        };

        assertRefused(stopAfter(3, down).apply(inSession("s-1")), ErrorCode.AUDIT_UNAVAILABLE, null, "audit store");
    }

    private static RunawaySessions stopAfter(int failures, SessionFailures.LatestCodeRecord records) {
        return new RunawaySessions(new SessionFailures(records, JSON), failures);
    }

    /** The trail of alice's session s-1, its latest code record keeping the streak. */
    private static SessionFailures.LatestCodeRecord streak(int inARow) {
        return (user, session) -> user.equals("alice") && session.equals("s-1")
                ? Optional.of("{\"" + SessionFailures.FIELD + "\":" + inARow + "}") : Optional.empty();
    }

    private static Exchange inSession(String session) {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, "{\"input\":\"try again\"}");
        exchange.sessionResolved(session);
        return exchange;
    }
}
