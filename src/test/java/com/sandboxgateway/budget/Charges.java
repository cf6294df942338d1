package com.sandboxgateway.budget;

import java.util.List;

/** What the budget store holds against a charge id, for tests outside this package too. */
public final class Charges {

    private Charges() {
    }

    /** The turns recorded against the user's charge id, {@code null} while pending; empty when there is no such charge. */
    public static List<Integer> turns(Budgets budgets, String chargeId, String user) {
        return budgets.store().turnCharge(chargeId, user).stream().map(BudgetStore.TurnCharge::turns).toList();
    }

    /** The spend recorded against a charge id, in micro-USD; empty when there is no such charge. */
    public static List<Long> spend(Budgets budgets, String chargeId) {
        return budgets.store().spendCharge(chargeId).stream().boxed().toList();
    }
}
