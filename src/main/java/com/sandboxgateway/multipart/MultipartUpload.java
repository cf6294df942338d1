package com.sandboxgateway.multipart;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * A multipart upload on its way upstream. Policy steps register what to do with its form fields (check
 * or rewrite one, add a default), then the upload step reads it through its file rule with
 * {@link #prepare}, before anything moves.
 *
 * <p>Without rules the client's bytes stream straight through. {@link #prepare} reads the whole upload: form fields into memory (they are small), each file through its rule into a
 * spool file on disk. Only an upload that passed every rule is then sent, so a refusal, however late
 * in a multi-gigabyte file, means the upstream received nothing; and the heap holds one buffer, never
 * the file.
 */
public final class MultipartUpload implements AutoCloseable {

    private static final int MAX_FIELD_BYTES = 1024 * 1024;

    /** The form field OpenAI's upload routes take the file in. */
    private static final String FILE_FIELD = "file";

    private final InputStream source;
    private final long length;
    private final String contentType;
    private final String boundary;
    private final Path spoolDir;
    private final Map<String, UnaryOperator<String>> fieldRules = new LinkedHashMap<>();
    private final Map<String, String> fieldDefaults = new LinkedHashMap<>();
    private List<Segment> prepared;

    /** What to do with an uploaded file: read {@code content}, write what goes upstream to {@code out}. */
    @FunctionalInterface
    public interface FileRule {
        void transfer(PartHeaders headers, InputStream content, OutputStream out) throws IOException;
    }

    /**
     * @param length the client's {@code Content-Length}, or -1
     * @param spoolDir where rewritten files wait until the whole upload has passed its rules
     */
    public MultipartUpload(InputStream source, long length, String contentType, Path spoolDir) {
        this.source = source;
        this.length = length;
        this.contentType = contentType;
        this.boundary = boundary(contentType);
        this.spoolDir = spoolDir;
    }

    /**
     * Applies {@code rule} to the value of every form field named {@code name}; the rule returns the
     * value to send (possibly changed) or throws {@link GatewayException} to refuse the upload.
     */
    public void onField(String name, UnaryOperator<String> rule) {
        fieldRules.merge(name, rule, (first, second) -> value -> second.apply(first.apply(value)));
    }

    /** Adds the form field {@code name} with {@code value} when the client did not send it. */
    public void defaultField(String name, String value) {
        fieldDefaults.put(name, value);
    }

    public String contentType() {
        return contentType;
    }

    /**
     * Reads the whole upload now: form fields through their rules, every file through {@code fileRule}
     * into the spool. Once only.
     *
     * @throws GatewayException when a rule refuses the upload or the body is malformed
     */
    public void prepare(FileRule fileRule) {
        if (prepared != null) {
            throw new IllegalStateException("an upload is prepared once");
        }
        prepared = new ArrayList<>();
        MultipartReader reader = new MultipartReader(source, boundary);
        Map<String, String> missing = new LinkedHashMap<>(fieldDefaults);
        try {
            for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
                missing.remove(part.headers().name());
                if (!part.headers().isFile() && FILE_FIELD.equals(part.headers().name())) {
                    // Without a filename the part would pass as a plain field, past the file rules: refuse it.
                    throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The 'file' part has no filename, so the "
                            + "gateway cannot tell its type. Send the file with its name (e.g. sales.csv).", FILE_FIELD, null);
                }
                prepared.add(new Segment(opening(part.headers()), null));
                prepared.add(part.headers().isFile() ? new Segment(null, spool(part, fileRule)) : new Segment(field(part), null));
            }
            for (Map.Entry<String, String> field : missing.entrySet()) {
                byte[] headers = ("Content-Disposition: form-data; name=\"" + field.getKey() + "\"").getBytes(StandardCharsets.UTF_8);
                prepared.add(new Segment(opening(new PartHeaders(headers, field.getKey(), null, null)), null));
                prepared.add(new Segment(field.getValue().getBytes(StandardCharsets.UTF_8), null));
            }
        } catch (MalformedMultipartException e) {
            close();
            throw new GatewayException(ErrorCode.INVALID_REQUEST, "The multipart body is malformed: " + e.getMessage() + ".");
        } catch (IOException e) {
            close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        prepared.add(new Segment(closing(), null));
    }

    /** The body to send upstream: the client's bytes when no rule applies, else the prepared parts. */
    public InputStream body() {
        if (isUntouched()) {
            return source;
        }
        List<InputStream> streams = new ArrayList<>();
        for (Segment segment : prepared) {
            streams.add(segment.open());
        }
        return new SequenceInputStream(Collections.enumeration(streams));
    }

    /** The length of {@link #body()}, or -1 when unknown (then it is sent chunked). */
    public long length() {
        if (isUntouched()) {
            return length;
        }
        return prepared.stream().mapToLong(Segment::length).sum();
    }

    /** Deletes the spool files. */
    @Override
    public void close() {
        if (prepared != null) {
            prepared.forEach(Segment::delete);
        }
    }

    /** Whether the client's bytes go upstream as they are; an upload with field rules must be prepared first. */
    private boolean isUntouched() {
        if (prepared == null && !(fieldRules.isEmpty() && fieldDefaults.isEmpty())) {
            throw new IllegalStateException("an upload with form-field rules is prepared before it is sent");
        }
        return prepared == null;
    }

    private byte[] field(MultipartReader.Part part) throws IOException {
        byte[] value = part.content().readNBytes(MAX_FIELD_BYTES + 1);
        if (value.length > MAX_FIELD_BYTES) {
            throw new GatewayException(ErrorCode.INVALID_REQUEST, "The form field '" + part.headers().name()
                    + "' is larger than " + MAX_FIELD_BYTES + " bytes; only files may be large.");
        }
        UnaryOperator<String> rule = fieldRules.get(part.headers().name());
        return rule == null ? value : rule.apply(new String(value, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
    }

    private Path spool(MultipartReader.Part part, FileRule fileRule) throws IOException {
        Path file = Files.createTempFile(spoolDir, "upload-", ".part");
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 64 * 1024)) {
            fileRule.transfer(part.headers(), part.content(), out);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        return file;
    }

    private byte[] opening(PartHeaders headers) {
        // The first delimiter opens the body; every later one also ends the part before it.
        ByteArrayOutputStream opening = new ByteArrayOutputStream();
        opening.writeBytes(((prepared.isEmpty() ? "--" : "\r\n--") + boundary + "\r\n").getBytes(StandardCharsets.US_ASCII));
        opening.writeBytes(headers.raw());
        opening.writeBytes((headers.raw().length == 0 ? "\r\n" : "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        return opening.toByteArray();
    }

    private byte[] closing() {
        return ((prepared.isEmpty() ? "--" : "\r\n--") + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static String boundary(String contentType) {
        for (String parameter : contentType.split(";")) {
            String trimmed = parameter.strip();
            if (trimmed.regionMatches(true, 0, "boundary=", 0, 9)) {
                String value = trimmed.substring(9);
                return value.length() > 1 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
            }
        }
        throw new GatewayException(ErrorCode.INVALID_REQUEST, "The multipart Content-Type has no boundary parameter.");
    }

    /** A piece of the prepared body: bytes in memory or a spooled file. */
    private record Segment(byte[] bytes, Path file) {

        InputStream open() {
            if (bytes != null) {
                return new ByteArrayInputStream(bytes);
            }
            try {
                return Files.newInputStream(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        long length() {
            try {
                return bytes != null ? bytes.length : Files.size(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void delete() {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // Nothing more can be done here; the spool directory is the operator's to watch.
                }
            }
        }
    }
}
