package com.sandboxgateway.sanitize;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.secrets.TextGuard;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The column rules applied to one JSON object of a file (a JSON Lines line or an element of a JSON array).
 * Rules match top-level keys (a nested object under a dropped key goes with it); a pseudonymized value is
 * replaced by the pseudonym of its text (of its compact JSON for an object or array). Remembers which
 * columns it acted on, for the report.
 */
final class JsonObjectRules {

    private final SanitizationRules rules;
    private final Pseudonymizer.Session pseudonyms;
    private final JsonMapper json;
    private final TextGuard guard;
    private final InstructionCheck instructions;
    private final Set<String> dropped = new LinkedHashSet<>();
    private final Set<String> pseudonymized = new LinkedHashSet<>();

    /**
     * @param guard scans string values no key rule rewrites for credentials and personal data; null: none
     * @param instructions checks the string values that go upstream for instructions aimed at a model; null: none
     */
    JsonObjectRules(SanitizationRules rules, Pseudonymizer.Session pseudonyms, JsonMapper json, TextGuard guard,
                    InstructionCheck instructions) {
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.json = json;
        this.guard = guard;
        this.instructions = instructions;
    }

    /**
     * Rewrites {@code object} in place.
     *
     * @param where names the object in messages: {@code Line 3}, {@code Item 3}
     * @throws GatewayException {@code missing_required_columns} when it lacks a key the profile requires
     */
    void apply(ObjectNode object, long line, String where) {
        Set<String> present = new LinkedHashSet<>();
        List<String> keys = new ArrayList<>(object.propertyNames());
        int position = 0;
        for (String key : keys) {
            position++;
            String column = ColumnNames.normalize(key);
            present.add(column);
            if (rules.drops(column)) {
                object.remove(key);
                dropped.add(column);
            } else if (rules.pseudonymizes(column)) {
                JsonNode value = object.get(key);
                if (!value.isNull()) {
                    String plain = value.isValueNode() ? value.asString() : json.writeValueAsString(value);
                    object.put(key, pseudonyms.pseudonym(plain));
                }
                pseudonymized.add(column);
            } else {
                if (guard != null) {
                    object.set(key, guarded(object.get(key), where, key));
                }
                if (instructions != null) {
                    checkStrings(object.get(key), line, position);
                }
            }
        }
        Set<String> missing = new LinkedHashSet<>(rules.required());
        missing.removeAll(present);
        if (!missing.isEmpty()) {
            throw new GatewayException(ErrorCode.MISSING_REQUIRED_COLUMNS, where + " lacks the keys profile '"
                    + rules.profile() + "' requires: " + String.join(", ", missing) + ".");
        }
    }

    SanitizationReport report(String format, long rows) {
        return new SanitizationReport(format, List.copyOf(dropped), List.copyOf(pseudonymized), rows,
                pseudonymized.isEmpty() ? null : pseudonyms.keyId());
    }

    /** String values anywhere under a key, scanned and (where the policy says) replaced. */
    private JsonNode guarded(JsonNode value, String where, String key) {
        if (value.isString()) {
            CharSequence checked = guard.guard(value.asString(), () -> "file " + where.toLowerCase(java.util.Locale.ROOT)
                    + " key " + key, true);
            return checked == value.asString() ? value : json.getNodeFactory().stringNode(checked.toString());
        }
        if (value instanceof ObjectNode object) {
            for (String name : new ArrayList<>(object.propertyNames())) {
                object.set(name, guarded(object.get(name), where, key + "." + name));
            }
        } else if (value instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, guarded(array.get(i), where, key + "[" + i + "]"));
            }
        }
        return value;
    }

    /** Every string value under a top-level key, reported at that key's position in the object. */
    private void checkStrings(JsonNode value, long line, int position) {
        if (value.isString()) {
            instructions.check(value.asString(), line, position);
        } else if (value.isContainer()) {
            for (JsonNode child : value) {
                checkStrings(child, line, position);
            }
        }
    }
}
