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
public record InputPlaces(List<Text> texts, List<InlineFile> files, List<ObjectId> ids, List<Unsupported> unsupported,
                          List<Skills> skills) {

    /** No body, or a route whose body carries no input. */
    public static final InputPlaces NONE = new InputPlaces(List.of(), List.of(), List.of(), List.of(), List.of());

    public InputPlaces {
        texts = List.copyOf(texts);
        files = List.copyOf(files);
        ids = List.copyOf(ids);
        unsupported = List.copyOf(unsupported);
        skills = List.copyOf(skills);
    }

    /**
     * The skills a container is given ({@code skills} of {@code POST /v1/containers} or of an auto container): each
     * a {@code skill_reference} or an {@code inline} bundle, held to the skill policy by {@code ContainerSkills}. The
     * walk already refused members of other types; an inline skill's name and description are among the texts.
     */
    public record Skills(ArrayNode list, String path) {
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
     * A part that carries a file itself rather than naming an uploaded one: an {@code input_file} with
     * {@code file_data} (inline) or {@code file_url} (to be fetched), or an image whose one field
     * ({@code input_image.image_url}, a replayed code-interpreter output's {@code url}) is a {@code data:} URL
     * (inline) or a URL OpenAI would download. The part is edited in place when the file is fetched or rewritten.
     *
     * @param dataField the field holding the file inline
     * @param urlField the field holding the file's URL; the same as {@code dataField} for an image
     */
    public record InlineFile(ObjectNode part, String path, String dataField, String urlField) {

        static InlineFile inputFile(ObjectNode part, String path) {
            return new InlineFile(part, path, "file_data", "file_url");
        }

        static InlineFile image(ObjectNode part, String path, String field) {
            return new InlineFile(part, path, field, field);
        }

        /** Whether the part is an image, whose one field holds either a URL or the data (and which has no filename). */
        public boolean image() {
            return dataField.equals(urlField);
        }

        /** The inline file ({@code data:} URL or, for {@code input_file}, plain base64), or {@code null}. */
        public String data() {
            String value = part.path(dataField).asString(null);
            return value == null || (image() && !isDataUrl(value)) ? null : value;
        }

        /** The URL to fetch the file from, or {@code null}. */
        public String url() {
            String value = part.path(urlField).asString(null);
            return value == null || (image() && isDataUrl(value)) ? null : value;
        }

        public boolean hasData() {
            return data() != null;
        }

        public boolean hasUrl() {
            return url() != null;
        }

        /** Puts the file inline, in place of its URL. */
        public void putData(String data) {
            if (!image()) {
                part.remove(urlField);
            }
            part.put(dataField, data);
        }

        private static boolean isDataUrl(String value) {
            return value.regionMatches(true, 0, "data:", 0, 5);
        }
    }

    /** An id of an upstream object the request names; the caller must own it. */
    public record ObjectId(String id, Kind kind, String path) {
    }

    /** The kinds of object a request body can name. */
    public enum Kind { FILE, CONTAINER, CONTAINER_FILE, RESPONSE, ITEM, CONVERSATION }

    /**
     * A member of a union the gateway does not govern.
     *
     * @param union which union it belongs to, in words ("input item", "content part", "annotation", "tool")
     */
    public record Unsupported(String union, String type, String path) {
    }
}
