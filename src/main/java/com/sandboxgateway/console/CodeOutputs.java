package com.sandboxgateway.console;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The outputs of an audited code block or shell call as the console shows them: logs as text, images inline
 * when the record holds them as {@code data:} URLs, otherwise named by their reference (the console does not
 * make the reviewer's browser fetch an outside URL); a shell command's stdout, stderr and how it ended. Outputs cut to the audit's cap are no longer JSON and are
 * shown as the text that was kept.
 */
final class CodeOutputs {

    private static final Pattern INLINE_IMAGE = Pattern.compile("data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+");

    private CodeOutputs() {
    }

    static List<Output> read(String outputs, JsonMapper json) {
        if (outputs == null || outputs.isEmpty()) {
            return List.of();
        }
        JsonNode parsed;
        try {
            parsed = json.readTree(outputs);
        } catch (JacksonException e) {
            return List.of(new Output.Kept(outputs));
        }
        List<Output> read = new ArrayList<>();
        for (JsonNode output : parsed) {
            switch (output.path("type").asString("")) {
                case "logs" -> read.add(new Output.Logs(output.path("logs").asString("")));
                case "image" -> {
                    String url = output.path("url").asString("");
                    read.add(INLINE_IMAGE.matcher(url).matches() ? new Output.InlineImage(url) : new Output.NamedImage(url));
                }
                default -> read.add(output.has("outcome") ? command(output) : new Output.Kept(output.toString()));
            }
        }
        return read;
    }

    /** A shell call's output chunk: {@code stdout}, {@code stderr} and an {@code exit} or {@code timeout} outcome. */
    private static Output.Command command(JsonNode chunk) {
        JsonNode outcome = chunk.path("outcome");
        String ended = switch (outcome.path("type").asString("")) {
            case "exit" -> "exit code " + outcome.path("exit_code").asString("?");
            case "timeout" -> "timed out";
            default -> "ended (" + outcome.path("type").asString("unknown") + ")";
        };
        return new Output.Command(chunk.path("stdout").asString(""), chunk.path("stderr").asString(""), ended);
    }

    /** One output of a code block or shell call. */
    sealed interface Output {

        record Logs(String text) implements Output {
        }

        /** An image the record holds itself ({@code data:image/...;base64,...}). */
        record InlineImage(String dataUrl) implements Output {
        }

        /** An image known only by its reference. */
        record NamedImage(String reference) implements Output {
        }

        /** What one shell command printed and how it ended ({@code exit code 6}, {@code timed out}). */
        record Command(String stdout, String stderr, String outcome) implements Output {
        }

        /** What the record kept when it is not an output the console knows (or was cut). */
        record Kept(String text) implements Output {
        }
    }
}
