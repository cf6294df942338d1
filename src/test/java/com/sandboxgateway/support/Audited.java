package com.sandboxgateway.support;

import java.util.List;
import java.util.function.Predicate;

import com.sandboxgateway.audit.AuditQuery;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.audit.StoredRecord;

/** The audit records a gateway kept, read as a reviewer reads them, whichever store keeps them. */
public final class Audited {

    private Audited() {
    }

    /** The records that match, in chain order. */
    public static List<AuditRecord> records(AuditTrail trail, Predicate<AuditRecord> matching) {
        return trail.query(new AuditQuery(null, null, null, null, null, null, null, null, null, Integer.MAX_VALUE)).stream()
                .map(StoredRecord::record).filter(matching).toList();
    }
}
