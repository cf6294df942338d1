package com.sandboxgateway.sanitize;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.input.InputPlaces;

import tools.jackson.databind.node.ObjectNode;

/**
 * Files sent inline in a response request or a conversation item ({@code input_file.file_data}, base64 or
 * a base64 {@code data:} URL, and {@code input_image.image_url} given as a {@code data:} URL, wherever the
 * request walk found one: message content, tool outputs, prompt variables) are held to the same rules as uploads: each is decoded, read through {@link FileSanitizer} (columns
 * dropped and pseudonymized, credentials and planted instructions found, a profile's columns required)
 * and sent on re-encoded, so an app cannot send inline what it could not upload. A file that breaks a
 * rule refuses the whole request, naming where the file sat. With several inline files, the answer's
 * {@code X-Gateway-Sanitized} describes the last; the audit has a record for each.
 */
public final class InlineFiles implements RequestStep {

    /** File types by media type, for an inline file sent without a name. */
    private static final Map<String, String> EXTENSIONS = Map.ofEntries(
            Map.entry("text/csv", "csv"), Map.entry("text/tab-separated-values", "tsv"), Map.entry("application/jsonl", "jsonl"),
            Map.entry("application/x-ndjson", "jsonl"), Map.entry("application/json", "json"),
            Map.entry("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
            Map.entry("application/gzip", "gz"), Map.entry("application/zip", "zip"), Map.entry("text/plain", "txt"),
            Map.entry("text/markdown", "md"), Map.entry("application/pdf", "pdf"), Map.entry("image/png", "png"),
            Map.entry("image/jpeg", "jpg"), Map.entry("image/gif", "gif"), Map.entry("image/webp", "webp"));

    private final FileSanitizer files;

    public InlineFiles(FileSanitizer files) {
        this.files = files;
    }

    @Override
    public Decision apply(Exchange exchange) {
        SanitizationRules rules = null;
        for (InputPlaces.InlineFile file : exchange.inputs().files()) {
            if (!file.hasData()) {
                continue;
            }
            rules = rules != null ? rules : files.rules(exchange.datasetProfile());
            String param = file.path() + "." + file.dataField();
            Decision decision = rules == null ? files.unknownProfile(exchange.datasetProfile()) : sanitize(exchange, file, rules);
            if (decision instanceof Decision.Reject refusal) {
                return refusal.locatedAt(param).at(param);
            }
        }
        return Decision.PROCEED;
    }

    private Decision sanitize(Exchange exchange, InputPlaces.InlineFile file, SanitizationRules rules) {
        ObjectNode part = file.part();
        String data = file.data();
        String prefix = "";
        String mediaType = null;
        if (data.startsWith("data:")) {
            int comma = data.indexOf(',');
            String header = comma < 0 ? "" : data.substring(5, comma).toLowerCase(Locale.ROOT);
            if (!header.endsWith(";base64")) {
                return invalid("is a data: URL that is not base64-encoded");
            }
            mediaType = header.substring(0, header.length() - ";base64".length());
            prefix = data.substring(0, comma + 1);
            data = data.substring(comma + 1);
        }
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(data);
        } catch (IllegalArgumentException e) {
            return invalid("is not valid base64");
        }
        String filename = filename(file.image() ? null : part.path("filename").asString(null), mediaType);
        if (filename == null) {
            return Decision.reject(ErrorCode.UNSUPPORTED_FILE_TYPE,
                    "The file has no filename and no known media type; give it a filename with its extension.");
        }
        ByteArrayOutputStream sanitized = new ByteArrayOutputStream(bytes.length);
        FileSanitizer.Outcome outcome;
        try {
            outcome = files.sanitize(exchange, filename, file.path(), new ByteArrayInputStream(bytes), sanitized, rules);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return switch (outcome) {
            case FileSanitizer.Outcome.Refused(Decision.Reject refusal) -> refusal;
            case FileSanitizer.Outcome.Sanitized(SanitizationReport report) -> {
                if (!report.passedUnchanged()) {
                    file.putData(prefix + Base64.getEncoder().encodeToString(sanitized.toByteArray()));
                    exchange.jsonEdited();
                }
                yield Decision.PROCEED;
            }
        };
    }

    /** The file's name, or one made from its media type so its type is known; {@code null} when neither says. */
    private static String filename(String filename, String mediaType) {
        if (filename != null && !filename.isBlank()) {
            return filename;
        }
        String extension = mediaType == null ? null : EXTENSIONS.get(mediaType);
        return extension == null ? null : "inline." + extension;
    }

    private static Decision.Reject invalid(String problem) {
        return Decision.reject(ErrorCode.INVALID_REQUEST, "The file data " + problem
                + ". Send the file's bytes base64-encoded, optionally as data:<media type>;base64,<data>.");
    }
}
