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
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rewrites a JSON file holding an array of objects element by element as it streams (only one element
 * is in memory at a time), each held to {@link JsonObjectRules} like a JSON Lines line. The result is a
 * JSON array again, one element per line.
 */
final class JsonArraySanitizer {

    private final JsonMapper json;
    /** Reads one element where the parser stands; the rest of the array is still to come. */
    private final ObjectReader elements;
    private final JsonObjectRules objects;

    JsonArraySanitizer(SanitizationRules rules, Pseudonymizer.Session pseudonyms, JsonMapper json, TextGuard guard,
                       InstructionCheck instructions) {
        this.json = json;
        this.elements = json.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.objects = new JsonObjectRules(rules, pseudonyms, json, guard, instructions);
    }

    SanitizationReport sanitize(InputStream in, OutputStream outStream) throws IOException {
        Writer out = new BufferedWriter(new OutputStreamWriter(outStream, StandardCharsets.UTF_8), 64 * 1024);
        long item = 0;
        try (JsonParser parser = json.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw invalid(parser, "the file is JSON but not an array; a .json data file holds an array of objects");
            }
            out.write('[');
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token != JsonToken.START_OBJECT) {
                    throw invalid(parser, "item " + (item + 1) + " is not an object; a .json data file holds an array of objects");
                }
                long line = parser.currentTokenLocation().getLineNr();
                JsonNode node = elements.readValue(parser);
                item++;
                objects.apply((ObjectNode) node, line, "Item " + item + " (line " + line + ")");
                out.write(item == 1 ? "\n" : ",\n");
                out.write(json.writeValueAsString(node));
            }
            if (parser.nextToken() != null) {
                throw invalid(parser, "there is more after the array's closing bracket");
            }
        } catch (JacksonException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new GatewayException(ErrorCode.INVALID_FILE, "Line " + line + ": the file is not valid JSON (or not UTF-8)."
                    + " Fix the file and upload it again.");
        }
        out.write("\n]\n");
        out.flush();
        return objects.report("json", item);
    }

    private static GatewayException invalid(JsonParser parser, String problem) {
        return new GatewayException(ErrorCode.INVALID_FILE, "Line " + parser.currentTokenLocation().getLineNr() + ": " + problem
                + ". Fix the file and upload it again.");
    }
}
