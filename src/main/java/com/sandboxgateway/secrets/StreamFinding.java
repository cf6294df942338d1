package com.sandboxgateway.secrets;

import java.util.Objects;

/**
 * A finding in a stream scanned chunk by chunk ({@link StreamingScan}). Offsets count characters
 * (UTF-16 units) from the start of the whole stream, as {@code long} because an upload can hold more
 * than 2<sup>31</sup> of them; {@code line} is the 1-based line the finding starts on (lines end at
 * {@code \n}), which is what an error message should name. Like {@link Finding}, it never holds the value.
 *
 * @param ruleId the stable id of the rule that found it
 * @param kind credential or personal data
 * @param start stream offset of the first character
 * @param end stream offset just past the last character
 * @param line 1-based line number of {@code start}
 */
public record StreamFinding(String ruleId, Finding.Kind kind, long start, long end, long line) {

    public StreamFinding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(kind, "kind");
        if (start < 0 || end <= start || line < 1) {
            throw new IllegalArgumentException("a stream finding needs 0 <= start < end and line >= 1, got ["
                    + start + ", " + end + ") on line " + line);
        }
    }
}
