package com.sandboxgateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The CSV sanitizer scans every cell of multi-gigabyte files: a clean short cell must cost no allocation. */
class ScannerAllocationTest {

    private static final List<String> CLEAN_CELLS = List.of("Alice", "42.50", "EUR", "2024-01-15", "true", "Berlin",
            "C-000123", "n/a", "Smith, John", "0.25", "-12", "yes", "ORD-77", "x");

    @Test
    void shouldReturnTheSharedEmptyListForCleanCells() {
        for (String cell : CLEAN_CELLS) {
            assertThat(SecretScanner.standard().scan(cell)).as(cell).isSameAs(List.of());
        }
    }

    @Test
    void shouldNotAllocateWhileScanningCleanShortCells() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        SecretScanner scanner = SecretScanner.standard();
        long thread = Thread.currentThread().threadId();
        int found = 0;
        for (int i = 0; i < 100_000; i++) {
            found += scanner.scan(CLEAN_CELLS.get(i % CLEAN_CELLS.size())).size();
        }

        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 1_000_000; i++) {
            found += scanner.scan(CLEAN_CELLS.get(i % CLEAN_CELLS.size())).size();
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(found).isZero();
        assertThat(allocated).as("bytes allocated for a million clean cells").isLessThan(1_000_000);
    }
}
