package com.sandboxgateway.sanitize;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.secrets.TextGuard;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rewrites a JSON Lines file object by object as it streams. Column rules match top-level keys (a
 * nested object under a dropped key goes with it); a pseudonymized value is replaced by the pseudonym
 * of its text (of its compact JSON for an object or array). Each line must be a JSON object and
 * carry the profile's required keys.
 */
final class JsonLinesSanitizer {

    private final SanitizationRules rules;
    private final Pseudonymizer.Session pseudonyms;
    private final JsonMapper json;

    private final TextGuard guard;
    private final InstructionCheck instructions;

    /**
     * @param guard scans string values no key rule rewrites for credentials and personal data; null: none
     * @param instructions checks the string values that go upstream for instructions aimed at a model; null: none
     */
    JsonLinesSanitizer(SanitizationRules rules, Pseudonymizer.Session pseudonyms, JsonMapper json, TextGuard guard,
                       InstructionCheck instructions) {
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.json = json;
        this.guard = guard;
        this.instructions = instructions;
    }

    SanitizationReport sanitize(InputStream in, OutputStream outStream) throws IOException {
        Utf8Chars source = new Utf8Chars(in);
        Writer out = new BufferedWriter(new OutputStreamWriter(outStream, StandardCharsets.UTF_8), 64 * 1024);
        Set<String> dropped = new LinkedHashSet<>();
        Set<String> pseudonymized = new LinkedHashSet<>();
        char[] buffer = new char[64 * 1024];
        StringBuilder text = new StringBuilder();
        long lineNumber = 1;
        long rows = 0;
        while (true) {
            int read;
            try {
                read = source.read(buffer);
            } catch (Utf8Chars.InvalidUtf8Exception e) {
                throw invalid(lineNumber, "the file is not valid UTF-8");
            }
            if (read < 0) {
                break;
            }
            for (int i = 0; i < read; i++) {
                if (buffer[i] == '\n') {
                    rows += line(text, lineNumber++, out, dropped, pseudonymized);
                    text.setLength(0);
                } else {
                    text.append(buffer[i]);
                }
            }
        }
        rows += line(text, lineNumber, out, dropped, pseudonymized);
        out.flush();
        return new SanitizationReport("jsonl", List.copyOf(dropped), List.copyOf(pseudonymized), rows,
                pseudonymized.isEmpty() ? null : pseudonyms.keyId());
    }

    private int line(StringBuilder text, long lineNumber, Writer out, Set<String> dropped, Set<String> pseudonymized)
            throws IOException {
        if (text.isEmpty() || text.toString().isBlank()) {
            return 0;
        }
        if (lineNumber == 1 && text.charAt(0) == '\uFEFF') {
            text.deleteCharAt(0);
        }
        ObjectNode object = parse(text, lineNumber);
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
                    object.set(key, guarded(object.get(key), lineNumber, key));
                }
                if (instructions != null) {
                    checkStrings(object.get(key), lineNumber, position);
                }
            }
        }
        Set<String> missing = new LinkedHashSet<>(rules.required());
        missing.removeAll(present);
        if (!missing.isEmpty()) {
            throw new GatewayException(ErrorCode.MISSING_REQUIRED_COLUMNS, "Line " + lineNumber + " lacks the keys profile '"
                    + rules.profile() + "' requires: " + String.join(", ", missing) + ".");
        }
        out.write(json.writeValueAsString(object));
        out.write('\n');
        return 1;
    }

    /** String values anywhere under a key, scanned and (where the policy says) replaced. */
    private JsonNode guarded(JsonNode value, long lineNumber, String key) {
        if (value.isString()) {
            CharSequence checked = guard.guard(value.asString(), () -> "file line " + lineNumber + " key " + key, true);
            return checked == value.asString() ? value : json.getNodeFactory().stringNode(checked.toString());
        }
        if (value instanceof ObjectNode object) {
            for (String name : new ArrayList<>(object.propertyNames())) {
                object.set(name, guarded(object.get(name), lineNumber, key + "." + name));
            }
        } else if (value instanceof tools.jackson.databind.node.ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, guarded(array.get(i), lineNumber, key + "[" + i + "]"));
            }
        }
        return value;
    }

    /** Every string value under a top-level key, reported at that key's position in the line's object. */
    private void checkStrings(JsonNode value, long lineNumber, int position) {
        if (value.isString()) {
            instructions.check(value.asString(), lineNumber, position);
        } else if (value.isContainer()) {
            for (JsonNode child : value) {
                checkStrings(child, lineNumber, position);
            }
        }
    }

    private ObjectNode parse(StringBuilder text, long lineNumber) {
        JsonNode node;
        try {
            node = json.readTree(text.toString());
        } catch (JacksonException e) {
            throw invalid(lineNumber, "the line is not valid JSON");
        }
        if (!(node instanceof ObjectNode object)) {
            throw invalid(lineNumber, "the line is JSON but not an object; JSON Lines data holds one object per line");
        }
        return object;
    }

    private static GatewayException invalid(long line, String problem) {
        return new GatewayException(ErrorCode.INVALID_FILE, "Line " + line + ": " + problem + ". Fix the file and upload it again.");
    }

}
