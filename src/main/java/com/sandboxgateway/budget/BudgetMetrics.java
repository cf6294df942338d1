package com.sandboxgateway.budget;

/**
 * The names of the meters the turn and spend budgets count, by {@code team}; what each means is said once, in the
 * metric catalogue, and dashboards and alert rules name them, so they change only with those.
 */
public final class BudgetMetrics {

    /** Executed code-interpreter and shell calls, as settled against turn budgets. */
    public static final String TURNS_USED = "gateway.turns.used";
    /** Input and output tokens of finished responses, by {@code kind}. */
    public static final String TOKENS = "gateway.tokens";
    /** Estimated spend in USD (tokens and container sessions). */
    public static final String SPEND_USD = "gateway.spend.usd";

    private BudgetMetrics() {
    }
}
