package com.sandboxgateway.skills;

import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.sanitize.FileSanitizer;
import com.sandboxgateway.sanitize.SanitizationReport;

/**
 * Reads every skill uploaded to {@code POST /v1/skills} and {@code POST /v1/skills/{id}/versions} before
 * anything goes upstream: one zip of the whole skill, or a directory upload (one {@code files} part per file,
 * named by its path in the skill), each part through {@link FileSanitizer#sanitizeSkill}. Refused outright
 * when the caller's policy does not allow uploaded skills.
 */
public final class SkillUploads implements RequestStep {

    /** The form fields a skill's files come in: a single zip, or an array of files. */
    private static final Set<String> FILE_FIELDS = Set.of("files", "files[]");

    private final SkillPolicies policies;
    private final FileSanitizer files;

    public SkillUploads(SkillPolicies policies, FileSanitizer files) {
        this.policies = policies;
        this.files = files;
    }

    @Override
    public Decision apply(Exchange exchange) {
        if (!policies.of(exchange.principal().team()).allowUploaded()) {
            return Decision.reject(ErrorCode.TOOL_NOT_ALLOWED, "The gateway policy does not allow uploaded skills for your team "
                    + "(gateway.policy.org.skills.allow-uploaded); use a skill the policy lists.");
        }
        if (!(exchange.body() instanceof RequestBody.Multipart multipart)) {
            return Decision.PROCEED;
        }
        for (String field : FILE_FIELDS) {
            // Without a filename a part would pass as a plain field, past the bundle rules.
            multipart.upload().onField(field, value -> {
                throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "A '" + field + "' part has no filename, so the "
                        + "gateway cannot tell what it holds. Send each file with its name (its path in the skill).", field, null);
            });
        }
        int[] parts = {0};
        boolean[] bundle = {false};
        try {
            multipart.upload().prepare((headers, content, out) -> {
                if (!FILE_FIELDS.contains(headers.name())) {
                    throw new GatewayException(ErrorCode.INVALID_REQUEST, "A skill upload carries its files in 'files' parts only, "
                            + "not in '" + headers.name() + "'.", headers.name(), null);
                }
                parts[0]++;
                SanitizationReport report = switch (files.sanitizeSkill(exchange, headers.filename(), null, content, out)) {
                    // Thrown to abandon the upload midway; the catch below returns it as the refusal it is.
                    case FileSanitizer.Outcome.Refused(Decision.Reject refusal) ->
                            throw (refusal.param() != null ? refusal : refusal.at(headers.name())).asException();
                    case FileSanitizer.Outcome.Sanitized(SanitizationReport sanitized) -> sanitized;
                };
                bundle[0] |= "zip".equals(report.format());
                if (bundle[0] && parts[0] > 1) {
                    throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "A skill upload is one zip of the skill or the "
                            + "skill's files one by one; an archive among several files is an archive inside the skill, which the "
                            + "gateway refuses. Unpack it into the skill's files.", headers.name(), null);
                }
            });
        } catch (GatewayException refused) {
            // A malformed body, a part without a filename, or a part the skill rules refused midway.
            return Decision.Reject.of(refused);
        }
        return Decision.PROCEED;
    }
}
