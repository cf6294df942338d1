package com.sandboxgateway.multipart;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * A multipart upload on its way upstream. Policy steps register what to do with it (check or rewrite a
 * form field, transform the file) before it moves; the upload then streams through part by part,
 * each rule applied as its part passes, so a file of any size never sits whole in memory.
 *
 * <p>Form fields before the first file are read ahead by {@link #readLeadingFields()}, so a refusal
 * based on them happens before anything is sent. A rule that throws {@link GatewayException} while
 * the body streams aborts the upstream call: the upstream never receives a complete request.
 */
public final class MultipartUpload {

    private static final int MAX_FIELD_BYTES = 1024 * 1024;

    private final InputStream source;
    private final long length;
    private final String contentType;
    private final String boundary;
    private final Map<String, UnaryOperator<String>> fieldRules = new LinkedHashMap<>();
    private final List<FileRule> fileRules = new ArrayList<>();
    private MultipartReader reader;
    private final List<byte[]> readAhead = new ArrayList<>();
    private MultipartReader.Part pendingFile;
    private boolean opened;

    /** What to do with an uploaded file's content as it passes. */
    @FunctionalInterface
    public interface FileRule {
        InputStream apply(PartHeaders headers, InputStream content);
    }

    public MultipartUpload(InputStream source, long length, String contentType) {
        this.source = source;
        this.length = length;
        this.contentType = contentType;
        this.boundary = boundary(contentType);
    }

    /**
     * Applies {@code rule} to the value of every form field named {@code name}; the rule returns the
     * value to send (possibly changed) or throws {@link GatewayException} to refuse the upload.
     */
    public void onField(String name, UnaryOperator<String> rule) {
        fieldRules.merge(name, rule, (first, second) -> value -> second.apply(first.apply(value)));
    }

    /** Passes every uploaded file through {@code rule}, in registration order. */
    public void onFile(FileRule rule) {
        fileRules.add(rule);
    }

    public String contentType() {
        return contentType;
    }

    /** The body's length when it passes untouched, else -1 (it is sent chunked). */
    public long length() {
        return isUntouched() ? length : -1;
    }

    /**
     * Reads and checks the form fields that come before the first file, so refusals based on them
     * happen before the upstream call starts.
     *
     * @throws GatewayException when a rule refuses a field or the body is malformed
     */
    public void readLeadingFields() {
        if (isUntouched() || reader != null) {
            return;
        }
        reader = new MultipartReader(source, boundary);
        try {
            for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
                if (part.headers().isFile()) {
                    pendingFile = part;
                    return;
                }
                readAhead.add(field(part));
            }
        } catch (IOException e) {
            throw malformed(e);
        }
        readAhead.add(closing());
    }

    /** The body to send upstream: the client's bytes when no rule applies, else the rewritten parts. */
    public InputStream body() {
        if (isUntouched()) {
            return source;
        }
        readLeadingFields();
        return new SequenceInputStream(new Segments());
    }

    private boolean isUntouched() {
        return fieldRules.isEmpty() && fileRules.isEmpty();
    }

    private byte[] field(MultipartReader.Part part) throws IOException {
        byte[] value = part.content().readNBytes(MAX_FIELD_BYTES + 1);
        if (value.length > MAX_FIELD_BYTES) {
            throw new GatewayException(ErrorCode.INVALID_REQUEST, "The form field '" + part.headers().name()
                    + "' is larger than " + MAX_FIELD_BYTES + " bytes; only files may be large.");
        }
        UnaryOperator<String> rule = fieldRules.get(part.headers().name());
        if (rule != null) {
            value = rule.apply(new String(value, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        }
        return concat(opening(part.headers()), value);
    }

    private InputStream file(MultipartReader.Part part) {
        InputStream content = part.content();
        for (FileRule rule : fileRules) {
            content = rule.apply(part.headers(), content);
        }
        return new SequenceInputStream(new ByteArrayInputStream(opening(part.headers())), content);
    }

    private byte[] opening(PartHeaders headers) {
        // The first delimiter opens the body; every later one also ends the part before it.
        byte[] start = ((opened ? "\r\n--" : "--") + boundary + "\r\n").getBytes(StandardCharsets.US_ASCII);
        opened = true;
        byte[] end = headers.raw().length == 0 ? "\r\n".getBytes(StandardCharsets.US_ASCII)
                : "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        return concat(concat(start, headers.raw()), end);
    }

    private byte[] closing() {
        return ((opened ? "\r\n--" : "--") + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] joined = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        return joined;
    }

    private static GatewayException malformed(IOException e) {
        if (e instanceof MalformedMultipartException) {
            return new GatewayException(ErrorCode.INVALID_REQUEST, "The multipart body is malformed: " + e.getMessage() + ".");
        }
        throw new UncheckedIOException(e);
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

    /**
     * The rewritten body as a lazy sequence: the fields read ahead, then each later part as the
     * upstream asks for more bytes.
     */
    private final class Segments implements Enumeration<InputStream> {
        private boolean closed = !readAhead.isEmpty() && pendingFile == null;

        @Override
        public boolean hasMoreElements() {
            return !readAhead.isEmpty() || pendingFile != null || !closed;
        }

        @Override
        public InputStream nextElement() {
            if (!readAhead.isEmpty()) {
                return new ByteArrayInputStream(readAhead.removeFirst());
            }
            if (pendingFile != null) {
                MultipartReader.Part part = pendingFile;
                pendingFile = null;
                return file(part);
            }
            if (closed) {
                throw new NoSuchElementException();
            }
            try {
                MultipartReader.Part part = reader.next();
                if (part == null) {
                    closed = true;
                    return new ByteArrayInputStream(closing());
                }
                return part.headers().isFile() ? file(part) : new ByteArrayInputStream(field(part));
            } catch (IOException e) {
                throw malformed(e);
            }
        }
    }
}
