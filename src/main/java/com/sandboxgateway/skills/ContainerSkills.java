package com.sandboxgateway.skills;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.ownership.Ownership;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.input.InputPlaces;
import com.sandboxgateway.sanitize.FileSanitizer;
import com.sandboxgateway.sanitize.SanitizationReport;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Holds the skills a container is given, wherever the request walk found a {@code skills} list, to the
 * caller's {@link SkillPolicy}: a {@code skill_reference} must name a skill the policy lists or one the
 * caller owns (anything else is {@code not_found}, as an unknown id: existence is never revealed); an
 * {@code inline} skill's zip is decoded, read like an uploaded bundle ({@link FileSanitizer#sanitizeSkill})
 * and sent on re-encoded.
 */
public final class ContainerSkills implements RequestStep {

    private final SkillPolicies policies;
    private final Ownership ownership;
    private final FileSanitizer files;

    public ContainerSkills(SkillPolicies policies, Ownership ownership, FileSanitizer files) {
        this.policies = policies;
        this.ownership = ownership;
        this.files = files;
    }

    @Override
    public Decision apply(Exchange exchange) {
        for (InputPlaces.Skills skills : exchange.inputs().skills()) {
            Decision decision = check(skills.list(), skills.path(), exchange);
            if (decision instanceof Decision.Reject) {
                return decision;
            }
        }
        return Decision.PROCEED;
    }

    /**
     * Checks one {@code skills} list of the request, rewriting its inline bundles in place. The references are
     * checked first, so no bundle is read for a request that is refused anyway.
     *
     * @param at the list's place in the body, e.g. {@code skills} or {@code tools[0].environment.skills}
     */
    public Decision check(ArrayNode skills, String at, Exchange exchange) {
        SkillPolicy policy = policies.of(exchange.principal().team());
        Map<String, String> unlisted = new LinkedHashMap<>();
        List<Integer> inline = new ArrayList<>();
        for (int k = 0; k < skills.size(); k++) {
            JsonNode skill = skills.get(k);
            String place = at + "[" + k + "]";
            switch (skill.path("type").asString("")) {
                case "skill_reference" -> {
                    JsonNode id = skill.get("skill_id");
                    if (id == null || !id.isString() || id.asString().isBlank()) {
                        return Decision.reject(ErrorCode.INVALID_REQUEST, "A skill_reference names its skill in 'skill_id'.",
                                place + ".skill_id");
                    }
                    if (!policy.allowed().contains(id.asString())) {
                        unlisted.putIfAbsent(id.asString(), place + ".skill_id");
                    }
                }
                case "inline" -> {
                    if (!policy.allowInline()) {
                        return Decision.reject(ErrorCode.TOOL_NOT_ALLOWED, "The gateway policy does not allow inline skills for "
                                + "your team (gateway.policy.org.skills.allow-inline); upload the skill or use one the policy lists.",
                                place);
                    }
                    inline.add(k);
                }
                default -> { } // refused by the walk as a skill type the gateway does not govern
            }
        }
        Decision references = owned(unlisted, policy, exchange);
        if (references instanceof Decision.Reject) {
            return references;
        }
        for (int k : inline) {
            String place = at + "[" + k + "]";
            if (inline((ObjectNode) skills.get(k), place, exchange) instanceof Decision.Reject refusal) {
                return refusal.locatedAt(place).at(refusal.param() != null ? refusal.param() : place + ".source.data");
            }
        }
        return Decision.PROCEED;
    }

    /**
     * References to skills the policy does not list, by id with where each was named: each must be the caller's
     * own, and uploaded skills allowed.
     */
    private Decision owned(Map<String, String> unlisted, SkillPolicy policy, Exchange exchange) {
        Set<String> visible = unlisted.isEmpty() ? Set.of() : ownership.visibleIds(unlisted.keySet(), exchange.principal());
        for (Map.Entry<String, String> reference : unlisted.entrySet()) {
            if (!visible.contains(reference.getKey())) {
                return Decision.reject(ErrorCode.NOT_FOUND, "No such Skill object: " + reference.getKey(), reference.getValue());
            }
            if (!policy.allowUploaded()) {
                return Decision.reject(ErrorCode.TOOL_NOT_ALLOWED, "The gateway policy does not allow uploaded skills for your "
                        + "team (gateway.policy.org.skills.allow-uploaded); use a skill the policy lists.", reference.getValue());
            }
        }
        return Decision.PROCEED;
    }

    /** Reads one inline skill's bundle and puts the sanitized one in its place; a refusal names the field at fault, if any. */
    private Decision inline(ObjectNode skill, String place, Exchange exchange) {
        JsonNode source = skill.path("source");
        JsonNode data = source.get("data");
        if (!"base64".equals(source.path("type").asString(null)) || data == null || !data.isString()) {
            return Decision.reject(ErrorCode.INVALID_REQUEST, "An inline skill's source is {\"type\": \"base64\", "
                    + "\"media_type\": \"application/zip\", \"data\": <the skill's zip, base64-encoded>}.", place + ".source");
        }
        byte[] zip;
        try {
            zip = Base64.getMimeDecoder().decode(data.asString());
        } catch (IllegalArgumentException e) {
            return Decision.reject(ErrorCode.INVALID_REQUEST, "The inline skill's data is not valid base64.");
        }
        ByteArrayOutputStream sanitized = new ByteArrayOutputStream(zip.length);
        FileSanitizer.Outcome outcome;
        try {
            outcome = files.sanitizeSkill(exchange, "inline-skill.zip", place + ".source", new ByteArrayInputStream(zip), sanitized);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return switch (outcome) {
            case FileSanitizer.Outcome.Refused(Decision.Reject refusal) -> refusal;
            case FileSanitizer.Outcome.Sanitized(SanitizationReport report) when !"zip".equals(report.format()) ->
                    Decision.reject(ErrorCode.UNSUPPORTED_FILE_TYPE, "An inline skill is a zip archive of the skill's files; this data is "
                            + report.format() + ".");
            case FileSanitizer.Outcome.Sanitized(SanitizationReport report) -> {
                ((ObjectNode) source).put("data", Base64.getEncoder().encodeToString(sanitized.toByteArray()));
                exchange.jsonEdited();
                yield Decision.PROCEED;
            }
        };
    }
}
