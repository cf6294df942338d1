package com.sandboxgateway.console;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.sandboxgateway.audit.AuditQuery;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.audit.StoredRecord;
import com.sandboxgateway.console.Reviews.Review;

/**
 * The flagged code blocks, oldest first, as pages of {@link #PAGE_SIZE}: every executed block carrying at
 * least one review flag (or the one asked for), narrowed by team, user and time, and by whether someone
 * reviewed it already. A page reads at most {@link ConsoleProperties#queueScanLimit()} records.
 */
final class ReviewQueue {

    static final int PAGE_SIZE = 50;
    private static final int READ = 500;

    private final AuditTrail trail;
    private final Reviews reviews;
    private final int scanLimit;

    ReviewQueue(AuditTrail trail, Reviews reviews, int scanLimit) {
        this.trail = trail;
        this.reviews = reviews;
        this.scanLimit = scanLimit;
    }

    Page page(Filter filter) {
        List<Entry> entries = new ArrayList<>();
        Long cursor = filter.after();
        int scanned = 0;
        while (scanned < scanLimit) {
            List<StoredRecord> read = trail.query(new AuditQuery(filter.user(), filter.team(), null, null, filter.since(),
                    filter.until(), AuditRecord.Kind.CODE_EXECUTION.name(), filter.flag(), cursor, READ));
            List<StoredRecord> flagged = read.stream().filter(stored -> !stored.record().flags().isEmpty()).toList();
            Map<String, List<Review>> reviewed = reviews.ofAll(flagged);
            for (StoredRecord stored : flagged) {
                List<Review> of = reviewed.getOrDefault(stored.record().recordId(), List.of());
                if (filter.state().admits(of)) {
                    entries.add(new Entry(stored, of));
                    if (entries.size() == PAGE_SIZE) {
                        return new Page(entries, stored.seq());
                    }
                }
            }
            scanned += read.size();
            if (read.size() < READ) {
                return new Page(entries, null);
            }
            cursor = read.getLast().seq();
        }
        return new Page(entries, cursor);
    }

    /** Which blocks a reviewer wants to see. */
    enum State {
        OPEN, REVIEWED, ALL;

        boolean admits(List<Review> reviews) {
            return this == ALL || (this == OPEN) == reviews.isEmpty();
        }
    }

    /** The queue's filters; {@code null} filters nothing, {@code after} is the cursor of the previous page. */
    record Filter(String flag, String team, String user, Instant since, Instant until, State state, Long after) {
    }

    /** A flagged block and its reviews. */
    record Entry(StoredRecord stored, List<Review> reviews) {
    }

    /** @param next the cursor of the following page, or {@code null} when this is the last */
    record Page(List<Entry> entries, Long next) {
    }
}
