package com.sandboxgateway.policy.input;

import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every place of one request body that carries text, a file or an object id, and every place the
 * gateway does not govern, as {@link RequestWalk} found them. Each place names its JSON path
 * ({@code input[2].output[0].text}), which refusals report as {@code param}.
 */
public record InputPlaces(List<Text> texts, List<InlineFile> files, List<ObjectId> ids, List<Unsupported> unsupported) {

    /** No body, or a route whose body carries no input. */
    public static final InputPlaces NONE = new InputPlaces(List.of(), List.of(), List.of(), List.of());

    public InputPlaces {
        texts = List.copyOf(texts);
        files = List.copyOf(files);
        ids = List.copyOf(ids);
        unsupported = List.copyOf(unsupported);
    }

    /**
     * A string the model or the sandbox reads, held in an object field or an array element, so a guard
     * can replace it in place.
     *
     * @param personalData whether personal data counts here (free text), or only credentials (a secret's value)
     */
    public record Text(JsonNode parent, String field, int index, String path, boolean personalData) {

        static Text field(ObjectNode parent, String field, String path, boolean personalData) {
            return new Text(parent, field, -1, path, personalData);
        }

        static Text element(ArrayNode parent, int index, String path, boolean personalData) {
            return new Text(parent, null, index, path, personalData);
        }

        public String value() {
            return (field == null ? parent.get(index) : parent.get(field)).asString();
        }

        public void replace(String value) {
            if (field == null) {
                ((ArrayNode) parent).set(index, value);
            } else {
                ((ObjectNode) parent).put(field, value);
            }
        }
    }

    /**
     * An {@code input_file} part that carries the file itself: {@code file_data} (inline) or
     * {@code file_url} (to be fetched). The part is edited in place when the file is rewritten.
     */
    public record InlineFile(ObjectNode part, String path) {

        public boolean hasData() {
            return part.path("file_data").isString();
        }

        public boolean hasUrl() {
            return part.path("file_url").isString();
        }
    }

    /** An id of an upstream object the request names; the caller must own it. */
    public record ObjectId(String id, Kind kind, String path) {
    }

    /** The kinds of object a request body can name. */
    public enum Kind { FILE, CONTAINER, RESPONSE, ITEM, CONVERSATION }

    /**
     * A member of a union the gateway does not govern.
     *
     * @param union which union it belongs to, in words ("input item", "content part", "tool")
     */
    public record Unsupported(String union, String type, String path) {
    }
}
