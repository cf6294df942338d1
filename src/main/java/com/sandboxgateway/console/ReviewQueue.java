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
 * The flagged code blocks and shell calls, oldest first, as pages of {@link #PAGE_SIZE}: every executed block
 * or shell call carrying at least one review flag (or the one asked for), narrowed by kind, team, user and
 * time, and by whether someone reviewed it already. A page reads at most
 * {@link ConsoleProperties#queueScanLimit()} records.
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
            List<StoredRecord> read = trail.flaggedExecutions(new AuditQuery(filter.user(), filter.team(), null, null,
                    filter.since(), filter.until(), filter.kind() == null ? null : filter.kind().name(), filter.flag(), cursor, READ));
            Map<String, List<Review>> reviewed = reviews.ofAll(read);
            for (StoredRecord stored : read) {
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

    /**
     * The queue's filters; {@code null} filters nothing, {@code kind} is {@code CODE_EXECUTION} or
     * {@code SHELL_EXECUTION}, {@code after} is the cursor of the previous page.
     */
    record Filter(String flag, AuditRecord.Kind kind, String team, String user, Instant since, Instant until, State state,
                  Long after) {
    }

    /** A flagged block or shell call and its reviews. */
    record Entry(StoredRecord stored, List<Review> reviews) {
    }

    /** @param next the cursor of the following page, or {@code null} when this is the last */
    record Page(List<Entry> entries, Long next) {
    }
}
