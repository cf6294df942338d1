package com.sandboxgateway.budget;

import java.time.Duration;
import java.util.List;

/**
 * The background responses created through the gateway whose turns are still pending: nobody fetched them finished
 * yet, so the code they ran is not audited and their turns are not settled. Handed out for the gateway to fetch them
 * itself ({@code gateway.background-responses}), each to one replica at a time.
 */
public final class UnfetchedResponses {

    /** A background response to fetch, and whom to fetch it as: the user and team that created it. */
    public record Unfetched(String responseId, String user, String team) {
    }

    private final BudgetStore store;

    UnfetchedResponses(BudgetStore store) {
        this.store = store;
    }

    /**
     * Takes up to {@code limit} of them, created more than {@code every} and less than {@code maxAge} ago, that no
     * replica took in the last {@code every}, oldest first; each is the caller's to fetch until {@code every} has
     * passed. One older than {@code maxAge} is given up: its reservation keeps counting, as before it was fetched.
     */
    public List<Unfetched> take(Duration every, Duration maxAge, int limit) {
        return store.takeUnfetched(every, maxAge, limit);
    }

    /** Stops fetching one that no longer exists upstream (deleted): its reservation keeps counting. */
    public void forget(String responseId) {
        store.forgetUnfetched(responseId);
    }
}
