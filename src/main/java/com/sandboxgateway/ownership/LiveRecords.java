package com.sandboxgateway.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The records of live objects this replica read lately, so that the ownership check of an id a session names turn after
 * turn (its files, its container, the previous response) costs no trip to the database. A record kept here never
 * shows an object outside its owner's scope: an id's owner never changes (the first owner stays) and only live records
 * are kept, so the one change it can miss is a deletion. This replica's deletions are forgotten at once; another
 * replica's are seen once the time to live has passed, the object meanwhile passed on to an upstream that no longer
 * has it. Ids not on record are never kept: an object recorded a moment ago is visible at once.
 */
final class LiveRecords {

    /** The most records kept; past it, the lot is dropped and refilled by the next reads. */
    private static final int MAX_RECORDS = 10_000;

    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();
    private final Duration timeToLive;
    private final Clock clock;

    /** @param timeToLive how long a record is trusted; zero (or less) keeps none */
    LiveRecords(Duration timeToLive, Clock clock) {
        this.timeToLive = timeToLive;
        this.clock = clock;
    }

    /** The live record of {@code id} read within the time to live, or null. */
    OwnedObject get(String id) {
        Kept record = kept.get(id);
        return record == null || clock.instant().isAfter(record.until()) ? null : record.object();
    }

    /** Keeps a record just read from the database, if it is live. */
    void keep(OwnedObject object) {
        if (object.isDeleted() || !timeToLive.isPositive()) {
            return;
        }
        if (kept.size() >= MAX_RECORDS) {
            kept.clear();
        }
        kept.put(object.id(), new Kept(object, clock.instant().plus(timeToLive)));
    }

    /** Forgets {@code id}, deleted through this replica. */
    void forget(String id) {
        kept.remove(id);
    }

    private record Kept(OwnedObject object, Instant until) {
    }
}
