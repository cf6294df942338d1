package com.sandboxgateway.budget;

import java.time.LocalDate;

import com.sandboxgateway.policy.Exchange;

/**
 * Turns taken from a user's budgets before a response is created, to be settled from the actual count. The
 * admission leaves it on the exchange ({@link #SLOT}); the turn budget takes it once to settle it.
 *
 * @param session the session the turns count against; for a new session, {@code null} until the response names it
 * @param day the (UTC) day whose per-user budget they were taken from
 * @param reserved how many turns were taken
 * @param left what the budgets had left after the reservation
 */
public record TurnReservation(String session, LocalDate day, int reserved, long left) {

    /** The exchange's unsettled reservation, until {@link TurnBudget} takes it to settle it or give it back. */
    static final Exchange.Slot<TurnReservation> SLOT = Exchange.Slot.named("turn reservation");

    /** The exchange's unsettled reservation, for those who only look (traces); {@code null} if none. */
    public static TurnReservation of(Exchange exchange) {
        return exchange.get(SLOT);
    }
}
