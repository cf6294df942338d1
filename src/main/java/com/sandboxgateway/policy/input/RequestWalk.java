package com.sandboxgateway.policy.input;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.sandboxgateway.policy.input.InputPlaces.Kind;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One walk over a request body against the typed model of {@code CreateResponse} ({@link InputUnion}):
 * collects every place that holds text, an inline file or an object id, and every union member the
 * gateway does not govern. Fields outside the unions that carry no data pass untouched, as do
 * unknown top-level fields. The walk only reads; the steps act on what it found.
 */
public final class RequestWalk {

    private final List<InputPlaces.Text> texts = new ArrayList<>();
    private final List<InputPlaces.InlineFile> files = new ArrayList<>();
    private final List<InputPlaces.ObjectId> ids = new ArrayList<>();
    private final List<InputPlaces.Unsupported> unsupported = new ArrayList<>();
    private final List<InputPlaces.Skills> skills = new ArrayList<>();

    private RequestWalk() {
    }

    /** The places of a {@code POST /v1/responses} body. */
    public static InputPlaces ofResponseRequest(ObjectNode body) {
        RequestWalk walk = new RequestWalk();
        walk.text(body, "instructions", "instructions", true);
        JsonNode input = body.get("input");
        if (input != null && !input.isArray()) {
            walk.text(body, "input", "input", true);
        } else {
            walk.items(input, "input");
        }
        walk.tools(body.get("tools"));
        walk.outputFormat(body.get("text"));
        walk.prompt(body.get("prompt"));
        walk.metadata(body);
        walk.id(body.get("previous_response_id"), Kind.RESPONSE, "previous_response_id");
        JsonNode conversation = body.get("conversation");
        if (conversation != null && conversation.isObject()) {
            walk.id(conversation.get("id"), Kind.CONVERSATION, "conversation.id");
        } else {
            walk.id(conversation, Kind.CONVERSATION, "conversation");
        }
        return walk.places();
    }

    /**
     * The places of a body of the Conversations API: {@code items} (governed like {@code input}) and
     * {@code metadata}, of a create, an update or an items create.
     */
    public static InputPlaces ofConversationRequest(ObjectNode body) {
        RequestWalk walk = new RequestWalk();
        walk.items(body.get("items"), "items");
        walk.metadata(body);
        return walk.places();
    }

    /** The places of a {@code POST /v1/containers} body: its {@code file_ids}, {@code domain_secrets} and {@code skills}. */
    public static InputPlaces ofContainerRequest(ObjectNode body) {
        RequestWalk walk = new RequestWalk();
        walk.containerSettings(body, "");
        return walk.places();
    }

    private InputPlaces places() {
        return new InputPlaces(texts, files, ids, unsupported, skills);
    }

    private void items(JsonNode items, String at) {
        if (!walkable(items, at, InputUnion.INPUT_ITEM)) {
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof ObjectNode item) {
                item(item, at + "[" + i + "]");
            }
        }
    }

    /**
     * Whether {@code value} is an array whose elements can be walked; a value of another shape, or an
     * element that is not an object, is not governed (it would pass unread) and is recorded so.
     */
    private boolean walkable(JsonNode value, String at, InputUnion union) {
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isArray()) {
            misshapen(value, at);
            return false;
        }
        for (int i = 0; i < value.size(); i++) {
            if (!value.get(i).isObject()) {
                unsupported.add(new InputPlaces.Unsupported(union.displayName(), nodeType(value.get(i)), at + "[" + i + "]"));
            }
        }
        return true;
    }

    private void item(ObjectNode item, String at) {
        String type = item.path("type").asString(null);
        if (type == null) {
            // Both may leave out their type: a message has a role, a reference only an id.
            type = item.has("role") ? "message" : "item_reference";
        }
        if (!InputUnion.INPUT_ITEM.governs(type)) {
            unsupported.add(new InputPlaces.Unsupported(InputUnion.INPUT_ITEM.displayName(), type, at));
            return;
        }
        // A replayed or referenced item names an item of an earlier response: it must be the caller's.
        id(item.get("id"), Kind.ITEM, at + ".id");
        switch (type) {
            case "message" -> content(item, "content", at);
            case "function_call" -> text(item, "arguments", at + ".arguments", true);
            case "custom_tool_call" -> text(item, "input", at + ".input", true);
            case "function_call_output", "custom_tool_call_output" -> content(item, "output", at);
            case "reasoning" -> {
                summaries(item.get("summary"), at + ".summary");
                summaries(item.get("content"), at + ".content");
                encrypted(item, at);
            }
            case "compaction" -> encrypted(item, at);
            case "code_interpreter_call" -> codeInterpreterCall(item, at);
            case "shell_call" -> shellCall(item, at);
            case "shell_call_output" -> shellCallOutput(item, at);
            default -> { } // item_reference (its id is checked above), compaction_trigger (no data)
        }
    }

    /**
     * {@code encrypted_content} is OpenAI's own ciphertext, opaque to the gateway; it is still scanned for
     * credentials, so one pasted there in the clear does not travel as "ciphertext". (Real ciphertext is
     * unbroken base64, which none of the credential rules match.)
     */
    private void encrypted(ObjectNode item, String at) {
        text(item, "encrypted_content", at + ".encrypted_content", false);
    }

    /** A message's content or a tool's output: a string, or an array of content parts. */
    private void content(ObjectNode holder, String field, String at) {
        JsonNode content = holder.get(field);
        if (content != null && content.isString()) {
            text(holder, field, at + "." + field, true);
            return;
        }
        if (!walkable(content, at + "." + field, InputUnion.CONTENT_PART)) {
            return;
        }
        for (int j = 0; j < content.size(); j++) {
            if (content.get(j) instanceof ObjectNode part) {
                part(part, at + "." + field + "[" + j + "]");
            }
        }
    }

    private void part(ObjectNode part, String at) {
        String type = part.path("type").asString(null);
        if (!InputUnion.CONTENT_PART.governs(type)) {
            unsupported.add(new InputPlaces.Unsupported(InputUnion.CONTENT_PART.displayName(), String.valueOf(type), at));
            return;
        }
        switch (type) {
            case "input_text" -> text(part, "text", at + ".text", true);
            case "output_text" -> {
                text(part, "text", at + ".text", true);
                annotations(part.get("annotations"), at + ".annotations");
            }
            case "refusal" -> text(part, "refusal", at + ".refusal", true);
            case "input_image" -> {
                id(part.get("file_id"), Kind.FILE, at + ".file_id");
                if (part.path("image_url").isString()) {
                    files.add(InputPlaces.InlineFile.image(part, at, "image_url"));
                }
            }
            case "input_file" -> {
                id(part.get("file_id"), Kind.FILE, at + ".file_id");
                if (part.path("file_data").isString() || part.path("file_url").isString()) {
                    files.add(InputPlaces.InlineFile.inputFile(part, at));
                }
            }
            default -> throw new IllegalStateException("governed content part without a walk: " + type);
        }
    }

    /**
     * The citations of replayed output text name files and containers: each must be the caller's (a cited
     * container file is recorded as the response owner's when the answer passes through).
     */
    private void annotations(JsonNode annotations, String at) {
        if (!walkable(annotations, at, InputUnion.ANNOTATION)) {
            return;
        }
        for (int k = 0; k < annotations.size(); k++) {
            if (!(annotations.get(k) instanceof ObjectNode annotation)) {
                continue;
            }
            String type = annotation.path("type").asString(null);
            String place = at + "[" + k + "]";
            if (!InputUnion.ANNOTATION.governs(type)) {
                unsupported.add(new InputPlaces.Unsupported(InputUnion.ANNOTATION.displayName(), String.valueOf(type), place));
                continue;
            }
            switch (type) {
                case "file_citation", "file_path" -> id(annotation.get("file_id"), Kind.FILE, place + ".file_id");
                case "container_file_citation" -> {
                    id(annotation.get("container_id"), Kind.CONTAINER, place + ".container_id");
                    id(annotation.get("file_id"), Kind.CONTAINER_FILE, place + ".file_id");
                }
                case "url_citation" -> {
                    text(annotation, "title", place + ".title", true);
                    text(annotation, "url", place + ".url", false);
                }
                default -> throw new IllegalStateException("governed annotation without a walk: " + type);
            }
        }
    }

    private void summaries(JsonNode parts, String at) {
        for (int k = 0; parts != null && parts.isArray() && k < parts.size(); k++) {
            if (parts.get(k) instanceof ObjectNode part) {
                text(part, "text", at + "[" + k + "].text", true);
            }
        }
    }

    private void codeInterpreterCall(ObjectNode call, String at) {
        text(call, "code", at + ".code", true);
        id(call.get("container_id"), Kind.CONTAINER, at + ".container_id");
        JsonNode outputs = call.get("outputs");
        if (!walkable(outputs, at + ".outputs", InputUnion.CODE_OUTPUT)) {
            return;
        }
        for (int k = 0; k < outputs.size(); k++) {
            if (!(outputs.get(k) instanceof ObjectNode output)) {
                continue;
            }
            String type = output.path("type").asString(null);
            String place = at + ".outputs[" + k + "]";
            if (!InputUnion.CODE_OUTPUT.governs(type)) {
                unsupported.add(new InputPlaces.Unsupported(InputUnion.CODE_OUTPUT.displayName(), String.valueOf(type), place));
            } else if ("logs".equals(type)) {
                text(output, "logs", place + ".logs", true);
            } else if (output.path("url").isString()) {
                // An image: inline (a data: URL) it meets the upload rules, remote the file_url policy.
                files.add(InputPlaces.InlineFile.image(output, place, "url"));
            } else if (output.get("url") != null && !output.get("url").isNull()) {
                misshapen(output.get("url"), place + ".url");
            }
        }
    }

    /** A replayed shell call: its commands are text the model reads again, its container must be the caller's. */
    private void shellCall(ObjectNode call, String at) {
        JsonNode commands = call.path("action").get("commands");
        if (commands instanceof ArrayNode list) {
            for (int k = 0; k < list.size(); k++) {
                if (list.get(k).isString()) {
                    texts.add(InputPlaces.Text.element(list, k, at + ".action.commands[" + k + "]", true));
                } else {
                    misshapen(list.get(k), at + ".action.commands[" + k + "]");
                }
            }
        } else if (commands != null && !commands.isNull()) {
            misshapen(commands, at + ".action.commands");
        }
        shellEnvironment(call.get("environment"), at + ".environment");
    }

    /** A replayed shell call's output: what the commands printed, read by the model again. */
    private void shellCallOutput(ObjectNode output, String at) {
        JsonNode chunks = output.get("output");
        if (chunks == null || chunks.isNull()) {
            return;
        }
        if (!chunks.isArray()) {
            misshapen(chunks, at + ".output");
            return;
        }
        for (int k = 0; k < chunks.size(); k++) {
            if (chunks.get(k) instanceof ObjectNode chunk) {
                text(chunk, "stdout", at + ".output[" + k + "].stdout", true);
                text(chunk, "stderr", at + ".output[" + k + "].stderr", true);
            } else {
                misshapen(chunks.get(k), at + ".output[" + k + "]");
            }
        }
    }

    /**
     * Where shell commands run: an auto container is governed like code interpreter's (files, network secrets),
     * a referenced one must be the caller's; {@code null} and {@code local} run on the client, which the
     * container rules decide on ({@code shell-local}).
     */
    private void shellEnvironment(JsonNode environment, String at) {
        if (environment == null || environment.isNull()) {
            return;
        }
        if (!(environment instanceof ObjectNode settings)) {
            misshapen(environment, at);
            return;
        }
        String type = settings.path("type").asString(null);
        if (!InputUnion.SHELL_ENVIRONMENT.governs(type)) {
            unsupported.add(new InputPlaces.Unsupported(InputUnion.SHELL_ENVIRONMENT.displayName(), String.valueOf(type), at));
            return;
        }
        switch (type) {
            case "container_auto" -> containerSettings(settings, at + ".");
            case "container_reference" -> id(settings.get("container_id"), Kind.CONTAINER, at + ".container_id");
            case "local" -> localSkills(settings.get("skills"), at + ".skills");
            default -> throw new IllegalStateException("governed shell environment without a walk: " + type);
        }
    }

    /**
     * Skills on the client's machine ({@code skills} of a {@code local} shell environment): only their name,
     * description and path travel, and they reach the model's context, so they are texts like a prompt.
     */
    private void localSkills(JsonNode list, String at) {
        if (list == null || list.isNull()) {
            return;
        }
        if (!list.isArray()) {
            misshapen(list, at);
            return;
        }
        for (int k = 0; k < list.size(); k++) {
            if (!(list.get(k) instanceof ObjectNode skill)) {
                misshapen(list.get(k), at + "[" + k + "]");
                continue;
            }
            for (String field : List.of("name", "description", "path")) {
                text(skill, field, at + "[" + k + "]." + field, true);
            }
        }
    }

    private void tools(JsonNode tools) {
        if (!walkable(tools, "tools", InputUnion.TOOL)) {
            return;
        }
        for (int i = 0; i < tools.size(); i++) {
            if (!(tools.get(i) instanceof ObjectNode tool)) {
                continue;
            }
            String at = "tools[" + i + "]";
            String type = tool.path("type").asString(null);
            if (!InputUnion.TOOL.governs(type)) {
                unsupported.add(new InputPlaces.Unsupported(InputUnion.TOOL.displayName(), String.valueOf(type), at));
                continue;
            }
            switch (type) {
                case "code_interpreter" -> container(tool, at + ".container");
                case "shell" -> shellEnvironment(tool.get("environment"), at + ".environment");
                case "function" -> {
                    text(tool, "description", at + ".description", true);
                    strings(tool.get("parameters"), at + ".parameters");
                }
                case "custom" -> {
                    text(tool, "description", at + ".description", true);
                    strings(tool.get("format"), at + ".format");
                }
                default -> throw new IllegalStateException("governed tool without a walk: " + type);
            }
        }
    }

    private void container(ObjectNode tool, String at) {
        JsonNode container = tool.get("container");
        if (container != null && container.isString()) {
            id(container, Kind.CONTAINER, at);
        } else if (container instanceof ObjectNode settings) {
            containerSettings(settings, at + ".");
        }
    }

    /** An auto container's or a created container's files, network secrets and skills; {@code at} ends with a dot or is empty. */
    private void containerSettings(ObjectNode container, String at) {
        JsonNode fileIds = container.get("file_ids");
        for (int k = 0; fileIds != null && fileIds.isArray() && k < fileIds.size(); k++) {
            id(fileIds.get(k), Kind.FILE, at + "file_ids[" + k + "]");
        }
        JsonNode secrets = container.path("network_policy").path("domain_secrets");
        for (int k = 0; k < secrets.size(); k++) {
            if (secrets.get(k) instanceof ObjectNode secret) {
                // A secret the sandbox may use on an allowed domain: credentials must not be plain here either.
                text(secret, "value", at + "network_policy.domain_secrets[" + k + "].value", false);
            }
        }
        skills(container.get("skills"), at + "skills");
    }

    /**
     * A container's skills, for the skill rules; members of other types are not governed. The name and
     * description of an inline skill reach the model's context, so they are texts like a prompt.
     */
    private void skills(JsonNode list, String at) {
        if (!walkable(list, at, InputUnion.SKILL)) {
            return;
        }
        skills.add(new InputPlaces.Skills((ArrayNode) list, at));
        for (int k = 0; k < list.size(); k++) {
            if (!(list.get(k) instanceof ObjectNode skill)) {
                continue;
            }
            String type = skill.path("type").asString(null);
            String place = at + "[" + k + "]";
            if (!InputUnion.SKILL.governs(type)) {
                unsupported.add(new InputPlaces.Unsupported(InputUnion.SKILL.displayName(), String.valueOf(type), place));
            } else if (type.equals("inline")) {
                text(skill, "name", place + ".name", true);
                text(skill, "description", place + ".description", true);
            }
        }
    }

    /** {@code text.format} of a structured output: its description and the strings of its JSON schema. */
    private void outputFormat(JsonNode text) {
        if (text != null && text.get("format") instanceof ObjectNode format) {
            text(format, "description", "text.format.description", true);
            strings(format.get("schema"), "text.format.schema");
        }
    }

    /** {@code prompt.variables}: each a string or a content part. */
    private void prompt(JsonNode prompt) {
        JsonNode variables = prompt == null ? null : prompt.get("variables");
        if (!(variables instanceof ObjectNode map)) {
            return;
        }
        for (Map.Entry<String, JsonNode> variable : map.properties()) {
            String at = "prompt.variables." + variable.getKey();
            if (variable.getValue() instanceof ObjectNode part) {
                part(part, at);
            } else {
                text(map, variable.getKey(), at, true);
            }
        }
    }

    private void metadata(ObjectNode body) {
        if (body.get("metadata") instanceof ObjectNode metadata) {
            for (String key : List.copyOf(metadata.propertyNames())) {
                text(metadata, key, "metadata." + key, true);
            }
        }
    }

    /** Every string inside a JSON value (a function's parameter schema, a grammar), for credentials. */
    private void strings(JsonNode value, String at) {
        if (value instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> property : object.properties()) {
                String place = at + "." + property.getKey();
                if (property.getValue().isString()) {
                    text(object, property.getKey(), place, false);
                } else {
                    strings(property.getValue(), place);
                }
            }
        } else if (value instanceof ArrayNode array) {
            for (int k = 0; k < array.size(); k++) {
                if (array.get(k).isString()) {
                    texts.add(InputPlaces.Text.element(array, k, at + "[" + k + "]", false));
                } else {
                    strings(array.get(k), at + "[" + k + "]");
                }
            }
        }
    }

    private void text(ObjectNode holder, String field, String at, boolean personalData) {
        JsonNode value = holder.get(field);
        if (value != null && value.isString()) {
            texts.add(InputPlaces.Text.field(holder, field, at, personalData));
        } else if (value != null && !value.isNull()) {
            misshapen(value, at);
        }
    }

    private void id(JsonNode id, Kind kind, String at) {
        if (id != null && id.isString() && !id.asString().isBlank()) {
            ids.add(new InputPlaces.ObjectId(id.asString(), kind, at));
        } else if (id != null && !id.isString() && !id.isNull()) {
            misshapen(id, at);
        }
    }

    /** A value where the spec has text, an id or a list, but of another shape: nothing would read it. */
    private void misshapen(JsonNode value, String at) {
        unsupported.add(new InputPlaces.Unsupported("value", nodeType(value), at));
    }

    private static String nodeType(JsonNode value) {
        return value.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
