package com.sandboxgateway.sanitize;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.secrets.TextGuard;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rewrites a JSON Lines file object by object as it streams, each line held to {@link JsonObjectRules}.
 * Each line must be a JSON object and carry the profile's required keys.
 */
final class JsonLinesSanitizer {

    private final JsonMapper json;
    private final JsonObjectRules objects;

    /**
     * @param guard scans string values no key rule rewrites for credentials and personal data; null: none
     * @param instructions checks the string values that go upstream for instructions aimed at a model; null: none
     */
    JsonLinesSanitizer(SanitizationRules rules, Pseudonymizer.Session pseudonyms, JsonMapper json, TextGuard guard,
                       InstructionCheck instructions) {
        this.json = json;
        this.objects = new JsonObjectRules(rules, pseudonyms, json, guard, instructions);
    }

    SanitizationReport sanitize(InputStream in, OutputStream outStream) throws IOException {
        Utf8Chars source = new Utf8Chars(in);
        Writer out = new BufferedWriter(new OutputStreamWriter(outStream, StandardCharsets.UTF_8), 64 * 1024);
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
                    rows += line(text, lineNumber++, out);
                    text.setLength(0);
                } else {
                    text.append(buffer[i]);
                }
            }
        }
        rows += line(text, lineNumber, out);
        out.flush();
        return objects.report("jsonl", rows);
    }

    private int line(StringBuilder text, long lineNumber, Writer out) throws IOException {
        if (text.isEmpty() || text.toString().isBlank()) {
            return 0;
        }
        if (lineNumber == 1 && text.charAt(0) == '\uFEFF') {
            text.deleteCharAt(0);
        }
        ObjectNode object = parse(text, lineNumber);
        objects.apply(object, lineNumber, "Line " + lineNumber);
        out.write(json.writeValueAsString(object));
        out.write('\n');
        return 1;
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
