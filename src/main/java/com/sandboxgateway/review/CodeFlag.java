package com.sandboxgateway.review;

import java.util.Comparator;
import java.util.Objects;

/**
 * One risk seen in an executed code block.
 *
 * @param flag what was seen, e.g. {@code env_access}, {@code http_client}; the standard flags are listed
 *             in {@code review/code-rules.yml}, operators may add their own
 * @param detail {@code null}, or a short string that is safe to store and show: a host and whether the
 *               session's allowlist holds it ({@code host=evil.example.net allowed=false}, {@code host=?}
 *               when the code computes it), a path prefix ({@code path=/etc}) or a known credential file
 *               ({@code file=.aws/credentials}). Never the content of a string literal otherwise, and
 *               anything that looks like a credential is replaced by {@code [REDACTED:<rule>]}.
 */
public record CodeFlag(String flag, String detail) implements Comparable<CodeFlag> {

    private static final Comparator<CodeFlag> ORDER = Comparator.comparing(CodeFlag::flag)
            .thenComparing(CodeFlag::detail, Comparator.nullsFirst(Comparator.naturalOrder()));

    public CodeFlag {
        Objects.requireNonNull(flag, "flag");
    }

    /** By flag, then detail, a flag without detail first. */
    @Override
    public int compareTo(CodeFlag other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return detail == null ? flag : flag + "(" + detail + ")";
    }
}
