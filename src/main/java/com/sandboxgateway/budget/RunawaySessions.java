package com.sandboxgateway.budget;

import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;

/**
 * Stops a session stuck in a retry loop ({@code gateway.policy.org.turns.stop-runaway-sessions}): once its
 * last N code blocks all failed (N = {@code gateway.review.failure-streak} + 1: the block flagged
 * {@code runaway_session} was the last), a new response in it is refused with {@code turn_budget_exhausted}.
 * The count comes from the audit trail, so it holds on every replica; when the trail cannot be read the
 * request is refused ({@code audit_unavailable}) rather than let an unchecked session run. Runs after
 * {@link Sessions}, which resolves the request's session; the reservation the admission made is given back when
 * this step refuses ({@link TurnBudget#onFinish}).
 */
public final class RunawaySessions implements RequestStep {

    private final SessionFailures failures;
    private final int stopAfter;

    /** @param stopAfter failed code blocks in a row that stop a session; 0 never stops one */
    RunawaySessions(SessionFailures failures, int stopAfter) {
        this.failures = failures;
        this.stopAfter = stopAfter;
    }

    @Override
    public Decision apply(Exchange exchange) {
        if (stopAfter <= 0 || exchange.session() == null) {
            return Decision.PROCEED;
        }
        int inARow;
        try {
            inARow = failures.inARow(exchange.principal().user(), exchange.session());
        } catch (DataAccessException | TransactionException e) {
            return Decision.reject(ErrorCode.AUDIT_UNAVAILABLE, "The gateway cannot read this session's failed code blocks "
                    + "from the audit store, so it does not run more code in it until it can. Retry shortly.");
        }
        if (inARow < stopAfter) {
            return Decision.PROCEED;
        }
        return Decision.reject(ErrorCode.TURN_BUDGET_EXHAUSTED, "This session was stopped after " + stopAfter
                + " consecutive failed code blocks: the model seems stuck retrying. Start a new session (another "
                + "X-Gateway-Session, or no previous_response_id) with a changed prompt or data.");
    }
}
