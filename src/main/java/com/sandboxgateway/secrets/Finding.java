package com.sandboxgateway.secrets;

import java.util.Objects;

/**
 * One credential or piece of personal data found in a text: which rule found it and where it sits,
 * as the half-open character range {@code [start, end)}. The value itself is deliberately not kept,
 * so a finding can be logged, audited or put into an error message without leaking what it points at.
 *
 * <p>The range covers the sensitive value only, not its surroundings: for {@code password=hunter2x!}
 * it is {@code hunter2x!}, for {@code postgres://app:pw@db} it is {@code pw}, so a redacted text keeps
 * the key names and URL shapes a reader needs.
 *
 * @param ruleId the stable id of the rule, e.g. {@code github-token}; see {@link SecretScanner#ruleIds()}
 * @param kind whether it is a credential or personal data
 * @param start index of the first character (UTF-16 units, as {@link CharSequence#charAt})
 * @param end index just past the last character
 */
public record Finding(String ruleId, Kind kind, int start, int end) {

    /** What a finding is, which decides how the gateway reacts to it. */
    public enum Kind {
        /** A credential that grants access: API keys, tokens, private keys, passwords. */
        SECRET,
        /** Data about a person: e-mail addresses, phone numbers, national ids, card numbers, bank accounts. */
        PII
    }

    public Finding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(kind, "kind");
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("a finding needs 0 <= start < end, got [" + start + ", " + end + ")");
        }
    }

    /** How many characters the finding covers. */
    public int length() {
        return end - start;
    }
}
