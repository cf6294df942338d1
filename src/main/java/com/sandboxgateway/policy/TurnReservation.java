package com.sandboxgateway.policy;

import java.time.LocalDate;

/**
 * Turns taken from a user's budgets before a response is created, to be settled from the actual count.
 *
 * @param session the session the turns count against; for a new session, {@code null} until the response names it
 * @param day the (UTC) day whose per-user budget they were taken from
 * @param reserved how many turns were taken
 * @param left what the budgets had left after the reservation
 * @param background whether the response runs in the background (settled when it is fetched, not now)
 */
public record TurnReservation(String session, LocalDate day, int reserved, long left, boolean background) {
}
