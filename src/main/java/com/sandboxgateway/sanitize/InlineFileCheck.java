package com.sandboxgateway.sanitize;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;

import org.springframework.context.ApplicationEventPublisher;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Holds files sent inline in a response request ({@code input_file.file_data}, base64 or a data URL) to
 * the injection policy, as uploads are: CSV/TSV cells and JSON Lines string values, or the lines of a
 * text file, are checked for instructions aimed at a model. The user's own prompt text is not: it is
 * their instruction, not data. Binary files (PDF, images) are not read.
 */
public final class InlineFileCheck implements RequestStep {

    /** No column rules: the file is only read, the request carries it unchanged. */
    private static final SanitizationRules READ_ONLY = new SanitizationRules(Set.of(), Set.of(), false, null, Set.of());

    private final InjectionScreening injection;
    private final JsonMapper json;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    public InlineFileCheck(InjectionScreening injection, JsonMapper json, ApplicationEventPublisher events, Clock clock) {
        this.injection = injection;
        this.json = json;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public Decision apply(Exchange exchange) {
        JsonNode input = exchange.json() == null ? null : exchange.json().get("input");
        if (exchange.route().route() != Route.RESPONSES_CREATE || input == null || !input.isArray()) {
            return Decision.PROCEED;
        }
        for (int i = 0; i < input.size(); i++) {
            JsonNode content = input.get(i).path("content");
            for (int j = 0; content.isArray() && j < content.size(); j++) {
                JsonNode part = content.get(j);
                if ("input_file".equals(part.path("type").asString(null)) && part.path("file_data").isString()) {
                    String location = "input[" + i + "].content[" + j + "]";
                    try {
                        check(exchange, part, location);
                    } catch (GatewayException blocked) {
                        return Decision.reject(blocked.code(), location + ".file_data: " + blocked.getMessage(),
                                location + ".file_data");
                    }
                }
            }
        }
        return Decision.PROCEED;
    }

    private void check(Exchange exchange, JsonNode part, String location) {
        String filename = part.path("filename").asString(null);
        String data = part.path("file_data").asString();
        String mediaType = null;
        if (data.startsWith("data:")) {
            int comma = data.indexOf(',');
            String header = comma < 0 ? "" : data.substring(5, comma).toLowerCase(Locale.ROOT);
            if (comma < 0 || !header.endsWith(";base64")) {
                return;
            }
            mediaType = header.substring(0, header.length() - ";base64".length());
            data = data.substring(comma + 1);
        }
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(data);
        } catch (IllegalArgumentException e) {
            return; // not base64: OpenAI refuses it, there is nothing here to read
        }
        InstructionCheck instructions = read(kind(filename, mediaType), bytes, exchange.principal().team());
        if (instructions == null || instructions.header() == null) {
            return;
        }
        exchange.addResponseHeader(GatewayHeaders.FLAGS, instructions.header());
        events.publishEvent(new InstructionsFound(exchange.requestId(), exchange.principal(), location, filename,
                instructions.found(), instructions.total(), clock.instant()));
    }

    /** The checked file, or {@code null} for a binary file. */
    private InstructionCheck read(FileFormat format, byte[] bytes, String team) {
        if (format == null) {
            return null;
        }
        InstructionCheck instructions = injection.forFile(team);
        try {
            switch (format) {
                case CSV -> new CsvSanitizer(',', READ_ONLY, null, null, instructions).sanitize(new ByteArrayInputStream(bytes),
                        OutputStream.nullOutputStream());
                case TSV -> new CsvSanitizer('\t', READ_ONLY, null, null, instructions).sanitize(new ByteArrayInputStream(bytes),
                        OutputStream.nullOutputStream());
                case JSONL -> new JsonLinesSanitizer(READ_ONLY, null, json, null, instructions).sanitize(
                        new ByteArrayInputStream(bytes), OutputStream.nullOutputStream());
                case OPAQUE -> readLines(bytes, instructions);
            }
        } catch (GatewayException unreadable) {
            if (unreadable.code() == ErrorCode.INSTRUCTION_IN_DATA) {
                throw unreadable;
            }
            // Not the data it claims to be: still read its lines as text, which is what the model would see.
            instructions = injection.forFile(team);
            readLines(bytes, instructions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return instructions;
    }

    private static void readLines(byte[] bytes, InstructionCheck instructions) {
        try (TextLinesChecked lines = new TextLinesChecked(OutputStream.nullOutputStream(), instructions)) {
            lines.write(bytes);
            lines.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Data formats by extension, else by media type; {@link FileFormat#OPAQUE} for text; {@code null} for binary. */
    private static FileFormat kind(String filename, String mediaType) {
        if (filename != null) {
            FileFormat byName = FileFormat.byName(filename, Set.of());
            if (byName != null) {
                return byName;
            }
            if (FileFormat.isText(filename)) {
                return FileFormat.OPAQUE;
            }
        }
        if (mediaType == null) {
            return null;
        }
        return switch (mediaType) {
            case "text/csv" -> FileFormat.CSV;
            case "text/tab-separated-values" -> FileFormat.TSV;
            case "application/jsonl", "application/x-ndjson" -> FileFormat.JSONL;
            default -> mediaType.startsWith("text/") ? FileFormat.OPAQUE : null;
        };
    }
}
