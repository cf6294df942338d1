package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * Record ids are time-ordered UUIDs (version 7), so the unique index on {@code record_id} grows at its end: an id made
 * in a later millisecond sorts after every id made before it, as text (how the column compares them) too.
 */
class AuditRecordIdTest {

    @Test
    void shouldMakeVersion7UuidsCarryingTheMillisecondTheyWereMadeIn() {
        long before = System.currentTimeMillis();
        UUID id = UUID.fromString(AuditRecord.newId());
        long after = System.currentTimeMillis();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(millis(id.toString())).isBetween(before, after);
    }

    @Test
    void shouldSortAnIdOfALaterMillisecondAfterTheEarlierOnes() {
        String first = AuditRecord.newId();
        Set<String> sameMillisecond = new HashSet<>(Set.of(first));
        String later = AuditRecord.newId();
        for (; millis(later) == millis(first); later = AuditRecord.newId()) {
            sameMillisecond.add(later);
        }
        String next = later;

        assertThat(sameMillisecond).allSatisfy(id -> assertThat(id).isLessThan(next));
    }

    @Test
    void shouldNotRepeatAnId() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(AuditRecord.newId());
        }
        assertThat(ids).hasSize(10_000);
    }

    private static long millis(String id) {
        return UUID.fromString(id).getMostSignificantBits() >>> 16;
    }
}
