package com.sandboxgateway.sanitize;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decides how to read a file from its first bytes; the name's extension is a hint. A table saved as
 * {@code .txt}, {@code .png} or without an extension is read as a table once its first line names a
 * governed column; JSON is read as JSON wherever it hides; only bytes that cannot hold a table pass as
 * opaque. A name that announces one data format over content of another is refused: the client meant
 * something the gateway would not be checking.
 */
final class FormatDetector {

    /** How much of a file the decision reads. */
    static final int HEAD_BYTES = 64 * 1024;

    private static final char[] DELIMITERS = {',', '\t', ';', '|'};
    private static final int MAX_HEADER_NAME = 256;

    /** What a file is read as; {@code delimiter} only for tables. */
    record Detected(FileFormat format, char delimiter) {
        static Detected of(FileFormat format) {
            return new Detected(format, (char) 0);
        }
    }

    /** What the extension announces. */
    private enum Named { TABLE, JSONL, JSON, WORKBOOK, GZIP, ZIP, OPAQUE, UNKNOWN }

    private final Collection<String> opaqueExtensions;
    private final JsonMapper json;
    private final boolean textOfAnyName;

    FormatDetector(Collection<String> opaqueExtensions, JsonMapper json) {
        this(opaqueExtensions, json, false);
    }

    /**
     * @param textOfAnyName whether text that is no table or JSON data is read as text whatever its name (the
     *        scripts and notes of a skill bundle), rather than only under a name on the opaque list
     */
    FormatDetector(Collection<String> opaqueExtensions, JsonMapper json, boolean textOfAnyName) {
        this.opaqueExtensions = opaqueExtensions;
        this.json = json;
        this.textOfAnyName = textOfAnyName;
    }

    /**
     * @param governed the normalized columns the rules act on (dropped, pseudonymized, required)
     * @throws GatewayException {@code unsupported_file_type} when the content contradicts the name, or is of a
     *         kind the gateway cannot check
     */
    Detected detect(String filename, byte[] head, int length, Set<String> governed) {
        String extension = extension(filename);
        Named named = named(extension);
        ContentSignature signature = ContentSignature.of(head, length);
        String refusedKind = signature == ContentSignature.OPAQUE ? ContentSignature.refusedKind(head, length) : null;
        if (refusedKind != null) {
            throw refused(filename, "it holds " + refusedKind + ", which the gateway cannot check; "
                    + "send the data as CSV, JSON Lines or XLSX");
        }
        return switch (signature) {
            case GZIP -> expect(filename, named, FileFormat.GZIP, "gzip-compressed data", Named.GZIP);
            case ZIP -> expect(filename, named, FileFormat.ZIP, "a zip archive", Named.ZIP, Named.WORKBOOK);
            case OPAQUE -> expect(filename, named, FileFormat.OPAQUE, "binary data", Named.OPAQUE);
            case TEXT -> text(filename, extension, named, new String(head, 0, length, StandardCharsets.UTF_8), length < HEAD_BYTES,
                    governed);
        };
    }

    /** Binary content is what its name says, or a file the name does not fit at all. */
    private Detected expect(String filename, Named named, FileFormat format, String content, Named... fitting) {
        if (named == Named.UNKNOWN && format != FileFormat.OPAQUE || named == Named.OPAQUE
                || List.of(fitting).contains(named)) {
            return Detected.of(format);
        }
        if (named == Named.UNKNOWN) {
            throw unsupported(filename);
        }
        throw refused(filename, "it holds " + content + ", not " + describe(named));
    }

    /** @param whole whether {@code head} is all of the file */
    private Detected text(String filename, String extension, Named named, String head, boolean whole, Set<String> governed) {
        String text = head.startsWith("\uFEFF") ? head.substring(1) : head;
        String start = text.stripLeading();
        boolean object = start.startsWith("{");
        boolean arrayOfObjects = start.startsWith("[") && (start.substring(1).isBlank() || start.substring(1).stripLeading().startsWith("{")
                || start.substring(1).stripLeading().startsWith("]"));
        switch (named) {
            case WORKBOOK, GZIP, ZIP -> throw refused(filename, "it holds text, not " + describe(named));
            case JSONL -> {
                if (!object) {
                    throw refused(filename, "a .jsonl file must hold one JSON object per line");
                }
                return Detected.of(FileFormat.JSONL);
            }
            case JSON -> {
                if (object) {
                    // A skill's configuration document is one object over many lines: text, not JSON Lines data.
                    return Detected.of(textOfAnyName && !firstLineIsJsonObject(start, whole) ? FileFormat.TEXT : FileFormat.JSONL);
                }
                if (start.startsWith("[")) {
                    return Detected.of(FileFormat.JSON_ARRAY);
                }
                throw refused(filename, "a .json file must hold an array of objects or one JSON object per line");
            }
            case TABLE -> {
                if (object || arrayOfObjects) {
                    throw refused(filename, "it holds JSON, not " + extension + "; name it " + (object ? ".jsonl" : ".json"));
                }
                char preferred = "tsv".equals(extension) ? '\t' : ',';
                return table(bestDelimiter(firstLine(text), preferred));
            }
            default -> {
                if (object && firstLineIsJsonObject(start, whole)) {
                    return Detected.of(FileFormat.JSONL);
                }
                if (arrayOfObjects) {
                    return Detected.of(FileFormat.JSON_ARRAY);
                }
                Character delimiter = governedDelimiter(firstLine(text), governed);
                if (delimiter != null) {
                    return table(delimiter);
                }
                if (named == Named.OPAQUE || textOfAnyName) {
                    return Detected.of(FileFormat.TEXT);
                }
                throw unsupported(filename);
            }
        }
    }

    private static Detected table(char delimiter) {
        return new Detected(delimiter == '\t' ? FileFormat.TSV : FileFormat.CSV, delimiter);
    }

    /** The delimiter that splits the header into the most fields; the name's on a tie. */
    private static char bestDelimiter(String line, char preferred) {
        char best = preferred;
        int most = headerFields(line, preferred).size();
        for (char delimiter : DELIMITERS) {
            int count = headerFields(line, delimiter).size();
            if (count > most) {
                best = delimiter;
                most = count;
            }
        }
        return best;
    }

    /** The delimiter under which the first line names a governed column, or {@code null} when it names none. */
    private static Character governedDelimiter(String line, Set<String> governed) {
        Character found = null;
        int most = 0;
        for (char delimiter : DELIMITERS) {
            List<String> fields = headerFields(line, delimiter);
            boolean plausible = fields.stream().allMatch(field -> field.length() <= MAX_HEADER_NAME);
            if (plausible && fields.size() > most && fields.stream().map(ColumnNames::normalize).anyMatch(governed::contains)) {
                found = delimiter;
                most = fields.size();
            }
        }
        return found;
    }

    /** The first record's fields under {@code delimiter}, RFC 4180 quotes honoured. */
    static List<String> headerFields(String line, char delimiter) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.isEmpty()) {
                quoted = true;
            } else if (c == delimiter) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    /** Up to the first line break outside quotes (or all of the head when there is none in it). */
    private static String firstLine(String text) {
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == '\n' || c == '\r')) {
                return text.substring(0, i);
            }
        }
        return text;
    }

    /**
     * Whether the first line is a JSON object: a note that merely starts with a brace stays text. A line too
     * long to see whole is taken for JSON, which the JSON Lines reader then reads or refuses.
     */
    private boolean firstLineIsJsonObject(String start, boolean whole) {
        int end = start.indexOf('\n');
        if (end < 0 && !whole) {
            return true;
        }
        try {
            return json.readTree(end < 0 ? start : start.substring(0, end)) instanceof ObjectNode;
        } catch (JacksonException e) {
            return false;
        }
    }

    /** Whether the name's extension is on the opaque list. */
    boolean namedOpaque(String filename) {
        return named(extension(filename)) == Named.OPAQUE;
    }

    private Named named(String extension) {
        return switch (extension) {
            case "csv", "tsv" -> Named.TABLE;
            case "jsonl", "ndjson" -> Named.JSONL;
            case "json" -> Named.JSON;
            case "xlsx", "xlsm" -> Named.WORKBOOK;
            case "gz", "gzip" -> Named.GZIP;
            case "zip" -> Named.ZIP;
            default -> !extension.isEmpty() && opaqueExtensions.stream().anyMatch(extension::equalsIgnoreCase)
                    ? Named.OPAQUE : Named.UNKNOWN;
        };
    }

    static String extension(String filename) {
        if (filename == null) {
            return "";
        }
        String name = filename.substring(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static String describe(Named named) {
        return switch (named) {
            case TABLE -> "delimited text";
            case JSONL -> "JSON Lines";
            case JSON -> "JSON";
            case WORKBOOK -> "a workbook";
            case GZIP -> "gzip-compressed data";
            case ZIP -> "a zip archive";
            default -> "what its name says";
        };
    }

    private GatewayException unsupported(String filename) {
        return new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + filename
                + "' has a type the policy does not accept. Send CSV, TSV, JSON Lines, JSON, XLSX (or gzip or zip of these), "
                + "or one of: " + String.join(", ", opaqueExtensions) + ".");
    }

    private static GatewayException refused(String filename, String why) {
        return new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + filename + "' does not match its name: "
                + why + ".");
    }
}
