package com.sandboxgateway.audit;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * A record field that holds JSON text ({@code details}, {@code outputs}), answered as the JSON value it
 * is rather than as a string. The chain hashes the text, so the text must come back exactly: a value is
 * written as JSON only when writing it again gives the very same text; anything else (outputs cut at
 * the cap, text that is not compact JSON) stays a string. Reading takes either form.
 */
final class EmbeddedJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private EmbeddedJson() {
    }

    /** The value as JSON when its text round-trips exactly, else the text as a string. */
    static final class Writer extends ValueSerializer<String> {
        @Override
        public void serialize(String text, JsonGenerator gen, SerializationContext context) {
            JsonNode value = exactValue(text);
            if (value == null) {
                gen.writeString(text);
            } else {
                gen.writeTree(value);
            }
        }
    }

    /** The text back from a JSON value (an export written by {@link Writer}), or a string as it is. */
    static final class Reader extends ValueDeserializer<String> {
        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) {
            if (parser.currentToken() == JsonToken.START_OBJECT || parser.currentToken() == JsonToken.START_ARRAY) {
                return JSON.writeValueAsString(context.readTree(parser));
            }
            return parser.getValueAsString();
        }
    }

    private static JsonNode exactValue(String text) {
        if (text == null || text.isEmpty() || (text.charAt(0) != '{' && text.charAt(0) != '[')) {
            return null;
        }
        try {
            JsonNode value = JSON.readTree(text);
            return JSON.writeValueAsString(value).equals(text) ? value : null;
        } catch (JacksonException e) {
            return null;
        }
    }
}
