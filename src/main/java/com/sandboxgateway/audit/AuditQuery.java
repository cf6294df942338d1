package com.sandboxgateway.audit;

import java.time.Instant;

/**
 * A filter over the audit trail; {@code null} fields do not filter.
 *
 * @param flag only records carrying this review flag, e.g. {@code env_access}
 * @param after the cursor: only records after this sequence number
 */
public record AuditQuery(String user, String team, String session, String container, Instant since, Instant until,
                         String kind, String flag, Long after, int limit) {
}
