package com.sandboxgateway.secrets;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The findings of one scan, kept in order of position and never overlapping. Rules report in the
 * scanner's order of precedence, so when two rules claim the same characters the first claim stands:
 * {@code token: ghp_…} is a {@code github-token}, not also a {@code generic-secret-assignment}.
 */
final class Findings {

    private final List<Finding> sorted = new ArrayList<>(4);

    private Findings() {
    }

    /**
     * Adds {@code finding} to {@code found}, creating the collection on the first finding: a scan that
     * finds nothing, which is most of them, allocates nothing.
     *
     * @param found the findings so far, {@code null} while there are none
     * @return the findings including this one (unless it overlaps an earlier claim)
     */
    static Findings add(Findings found, Finding finding) {
        Findings into = found == null ? new Findings() : found;
        into.insert(finding);
        return into;
    }

    private void insert(Finding finding) {
        int at = insertionPoint(finding.start());
        boolean overlapsBefore = at > 0 && sorted.get(at - 1).end() > finding.start();
        boolean overlapsAfter = at < sorted.size() && sorted.get(at).start() < finding.end();
        if (!overlapsBefore && !overlapsAfter) {
            sorted.add(at, finding);
        }
    }

    List<Finding> toList() {
        return Collections.unmodifiableList(sorted);
    }

    private int insertionPoint(int start) {
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted.get(middle).start() <= start) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
