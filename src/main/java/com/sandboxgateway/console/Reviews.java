package com.sandboxgateway.console;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import com.sandboxgateway.audit.AuditLog;
import com.sandboxgateway.audit.AuditQuery;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.audit.StoredRecord;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A reviewer's verdict on a record is itself an audit record ({@code kind=ADMIN_ACTION},
 * {@code details.action=review}): who (its user and team), when, the verdict, the note and the reviewed
 * record (seq, record id, call id, code hash). It names the reviewed record's session and container, so the
 * trail of a session or container shows its reviews, and it is hash-chained like every record.
 */
final class Reviews {

    /** What a reviewer may conclude, in the order the form offers them. */
    static final List<String> VERDICTS = List.of("benign", "needs_follow_up", "violation");
    static final int MAX_NOTE = 2000;
    private static final int PAGE = 1000;

    private final AuditTrail trail;
    private final AuditLog auditLog;
    private final JsonMapper json;
    private final Clock clock;

    Reviews(AuditTrail trail, AuditLog auditLog, JsonMapper json, Clock clock) {
        this.trail = trail;
        this.auditLog = auditLog;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Records the review; it is durable when this returns.
     *
     * @throws IllegalArgumentException when the verdict is not one of {@link #VERDICTS} or the note is too long
     */
    AuditRecord record(ConsoleUser reviewer, StoredRecord reviewed, String verdict, String note) {
        if (!VERDICTS.contains(verdict)) {
            throw new IllegalArgumentException("Choose a verdict: " + String.join(", ", VERDICTS) + ".");
        }
        String text = note == null ? "" : note.strip();
        if (text.length() > MAX_NOTE) {
            throw new IllegalArgumentException("Shorten the note to at most " + MAX_NOTE + " characters.");
        }
        AuditRecord target = reviewed.record();
        ObjectNode details = json.createObjectNode().put("action", "review").put("verdict", verdict).put("note", text)
                .put("record_seq", reviewed.seq()).put("record_id", target.recordId()).put("call_id", target.callId())
                .put("code_sha256", target.codeSha256());
        AuditRecord review = new AuditRecord(AuditRecord.newId(), AuditRecord.Kind.ADMIN_ACTION, null,
                "console-" + UUID.randomUUID(), null, reviewer.principal().user(), reviewer.principal().team(), target.session(),
                target.responseId(), target.containerId(), null, "review", null, null, null, false,
                json.writeValueAsString(details), clock.instant());
        auditLog.record(review);
        return review;
    }

    /** The reviews of one record, oldest first. */
    List<Review> of(StoredRecord reviewed) {
        return ofAll(List.of(reviewed)).getOrDefault(reviewed.record().recordId(), List.of());
    }

    /** The reviews of each of these records, by record id; records without reviews are absent. */
    Map<String, List<Review>> ofAll(Collection<StoredRecord> reviewed) {
        Set<String> ids = new java.util.HashSet<>();
        Set<String> sessions = new LinkedHashSet<>();
        long firstWithoutSession = Long.MAX_VALUE;
        for (StoredRecord stored : reviewed) {
            ids.add(stored.record().recordId());
            if (stored.record().session() != null) {
                sessions.add(stored.record().session());
            } else {
                firstWithoutSession = Math.min(firstWithoutSession, stored.seq());
            }
        }
        Map<String, List<Review>> byRecord = new HashMap<>();
        for (String session : sessions) {
            collect(session, null, ids, byRecord);
        }
        if (firstWithoutSession != Long.MAX_VALUE) {
            // A review comes after what it reviews, so the scan starts at the earliest record without a session.
            collect(null, firstWithoutSession, ids, byRecord);
        }
        return byRecord;
    }

    private void collect(String session, Long after, Set<String> ids, Map<String, List<Review>> byRecord) {
        Long cursor = after;
        while (true) {
            List<StoredRecord> page = trail.query(new AuditQuery(null, null, session, null, null, null,
                    AuditRecord.Kind.ADMIN_ACTION.name(), null, cursor, PAGE));
            for (StoredRecord stored : page) {
                JsonNode details = json.readTree(Objects.requireNonNullElse(stored.record().details(), "{}"));
                String target = details.path("record_id").asString(null);
                if ("review".equals(details.path("action").asString(null)) && ids.contains(target)) {
                    byRecord.computeIfAbsent(target, id -> new ArrayList<>()).add(new Review(stored.seq(), stored.record().user(),
                            stored.record().createdAt(), details.path("verdict").asString(""), details.path("note").asString("")));
                }
            }
            if (page.size() < PAGE) {
                return;
            }
            cursor = page.getLast().seq();
        }
    }

    /** One review as the console shows it. */
    record Review(long seq, String reviewer, Instant at, String verdict, String note) {
    }
}
