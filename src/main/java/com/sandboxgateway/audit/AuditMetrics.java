package com.sandboxgateway.audit;

/**
 * The names of the meters the audit counts; what each means is said once, in the metric catalogue (or where the
 * meter is built, for those registered with their description), and dashboards and alert rules name them, so they
 * change only with those.
 */
public final class AuditMetrics {

    /** Audited code blocks, by {@code team} and {@code status}. */
    public static final String CODE_EXECUTIONS = "gateway.code.executions";
    /** Audited hosted shell calls, by {@code team} and {@code status}. */
    public static final String SHELL_EXECUTIONS = "gateway.shell.executions";
    /** Requests that offered code execution, reached OpenAI and got no answer naming their response, by {@code team}. */
    public static final String UNSEEN_RESPONSES = "gateway.code.unseen_responses";
    /** Review flags raised on executed code and shell calls, once per call and flag, by {@code flag} and {@code team}. */
    public static final String CODE_FLAGS = "gateway.code.flags";
    /** Audit records written, by {@code outcome} (where they went). */
    public static final String WRITES = "gateway.audit.writes";
    /** Spooled audit records replayed into the store. */
    public static final String REPLAYS = "gateway.audit.replays";
    /** Audit records waiting in the spool (a gauge). */
    public static final String SPOOL_DEPTH = "gateway.audit.spool.depth";
    /** Audit tree heads signed by this replica. */
    public static final String CHECKPOINTS = "gateway.audit.checkpoints";
    /** Checkpoints a witness did not take, by {@code witness} kind. */
    public static final String WITNESS_FAILURES = "gateway.audit.witness.failures";

    private AuditMetrics() {
    }
}
