package com.sandboxgateway.budget;

import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.policy.Settlement;
import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.GroupCommit;

/**
 * A charge row (turns or spend) staged in an answer's settlement: written with the answer's other writes, or on
 * its own when their transaction failed. Its outcome decides what the counters do: a charge another request or
 * replica recorded first is not counted again. A charge that cannot be written at all is logged and counted as
 * charged, never held against the client's answer.
 *
 * @param what the charge, for the log
 * @param row the charge's row, made once by id: in the answer's transaction (in its last statement where it has one),
 *            or on its own
 */
record StagedCharge(String what, BudgetStore.ChargeRow row, Outcome outcome)
        implements Settlement.Write, GroupCommit.Deferrable {

    private static final Logger log = LoggerFactory.getLogger(StagedCharge.class);

    /** What follows from the charge once its row is durable. */
    @FunctionalInterface
    interface Outcome {

        /** @param fresh the row is new: false when the charge was recorded already */
        void charged(boolean fresh);
    }

    @Override
    public boolean write() {
        return row.insert();
    }

    @Override
    public BooleanSupplier write(CommitTail tail) {
        return row.insert(tail);
    }

    @Override
    public boolean joinsTransaction() {
        return row.joinsTransaction();
    }

    @Override
    public void written(boolean fresh) {
        outcome.charged(fresh);
    }

    @Override
    public void failed(RuntimeException cause) {
        boolean fresh;
        try {
            fresh = row.insert();
        } catch (RuntimeException e) {
            log.warn("{} could not be recorded; it is counted as charged: {}", what, e.toString());
            fresh = true;
        }
        outcome.charged(fresh);
    }

    /** Bookkeeping: a stream event may reach the client while its charge commits; the stream ends once it has. */
    @Override
    public Settlement.Timing timing() {
        return Settlement.Timing.AFTER_RELAY;
    }
}
