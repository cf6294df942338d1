package com.sandboxgateway.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.config.PolicyProperties;

/**
 * Applies the secrets and personal-data policy to one piece of text: a credential blocks the request
 * or is redacted; personal data is reported, pseudonymized or blocks. Errors name the rule and the
 * location, never the value. One instance per request: it collects what it found for the audit.
 */
public final class TextGuard {

    private final SecretScanner scanner;
    private final PolicyProperties.SecretsAction secrets;
    private final PolicyProperties.PiiAction pii;
    private final Function<CharSequence, String> pseudonyms;
    private final List<LocatedFinding> found = new ArrayList<>();

    /**
     * @param pseudonyms the keyed pseudonym of a value; needed only for {@code pii.action: pseudonymize}
     */
    public TextGuard(SecretScanner scanner, PolicyProperties.SecretsAction secrets, PolicyProperties.PiiAction pii,
                     Function<CharSequence, String> pseudonyms) {
        this.scanner = scanner;
        this.secrets = secrets;
        this.pii = pii;
        this.pseudonyms = pseudonyms;
    }

    /** What {@link #scan} made of one text: the text to send on, or the policy's refusal. */
    public sealed interface Guarded {

        /** The text passes: unchanged, or with findings replaced as the policy says. */
        record Passed(CharSequence text) implements Guarded {
        }

        /** The policy blocks the text: {@code secret_detected} or {@code pii_detected}, naming the rule and place. */
        record Blocked(Decision.Reject refusal) implements Guarded {
        }
    }

    /**
     * The text to send on (unchanged, or with findings replaced as the policy says), or the refusal when
     * the policy blocks what was found.
     *
     * @param personalData whether personal data counts here (free text), or only credentials
     */
    public Guarded scan(CharSequence text, Supplier<String> location, boolean personalData) {
        List<Finding> findings = scanner.scan(text);
        if (findings.isEmpty()) {
            return new Guarded.Passed(text);
        }
        List<Finding> replaced = new ArrayList<>();
        for (Finding finding : findings) {
            if (finding.kind() == Finding.Kind.PII && !personalData) {
                continue;
            }
            String where = location.get();
            found.add(new LocatedFinding(finding.ruleId(), finding.kind(), where));
            if (finding.kind() == Finding.Kind.SECRET) {
                if (secrets == PolicyProperties.SecretsAction.BLOCK) {
                    return new Guarded.Blocked(Decision.reject(ErrorCode.SECRET_DETECTED, where + " holds a credential (rule "
                            + finding.ruleId() + "). Remove it; credentials must never reach the sandbox."));
                }
                replaced.add(finding);
            } else if (pii == PolicyProperties.PiiAction.BLOCK) {
                return new Guarded.Blocked(Decision.reject(ErrorCode.PII_DETECTED, where + " holds personal data (rule "
                        + finding.ruleId() + "). Remove it or pseudonymize it before sending."));
            } else if (pii == PolicyProperties.PiiAction.PSEUDONYMIZE) {
                replaced.add(finding);
            }
        }
        return new Guarded.Passed(replaced.isEmpty() ? text : replace(text, replaced));
    }

    /**
     * {@link #scan} for the streaming file rewriters, which abandon a file midway by throwing;
     * {@link com.sandboxgateway.sanitize.FileSanitizer} turns that back into the refusal at its boundary.
     *
     * @throws GatewayException when the policy blocks the text
     */
    public CharSequence guard(CharSequence text, Supplier<String> location, boolean personalData) {
        return switch (scan(text, location, personalData)) {
            case Guarded.Passed passed -> passed.text();
            case Guarded.Blocked blocked -> throw blocked.refusal().asException();
        };
    }

    /** Adds a finding made elsewhere (a streamed file) to this request's record. */
    void record(LocatedFinding finding) {
        found.add(finding);
    }

    /** What replaces a finding's value: the redaction marker for a credential, the pseudonym for personal data. */
    String replacement(String ruleId, Finding.Kind kind, CharSequence value) {
        return kind == Finding.Kind.SECRET ? "[REDACTED:" + ruleId + "]" : pseudonyms.apply(value);
    }

    /** Everything found so far, for the audit. */
    public List<LocatedFinding> findings() {
        return List.copyOf(found);
    }

    /** What the policy did with what was found, for the audit. */
    public String handling() {
        boolean anySecret = found.stream().anyMatch(finding -> finding.kind() == Finding.Kind.SECRET);
        boolean anyPii = found.stream().anyMatch(finding -> finding.kind() == Finding.Kind.PII);
        List<String> parts = new ArrayList<>();
        if (anySecret) {
            parts.add(secrets == PolicyProperties.SecretsAction.BLOCK ? "secrets blocked" : "secrets redacted");
        }
        if (anyPii) {
            parts.add(switch (pii) {
                case BLOCK -> "personal data blocked";
                case PSEUDONYMIZE -> "personal data pseudonymized";
                case REPORT -> "personal data reported";
            });
        }
        return String.join(", ", parts);
    }

    private String replace(CharSequence text, List<Finding> findings) {
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (Finding finding : findings) {
            if (finding.start() < copied) {
                continue;
            }
            out.append(text, copied, finding.start())
                    .append(replacement(finding.ruleId(), finding.kind(), text.subSequence(finding.start(), finding.end())));
            copied = finding.end();
        }
        return out.append(text, copied, text.length()).toString();
    }
}
