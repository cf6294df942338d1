package com.sandboxgateway.simulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import com.sandboxgateway.multipart.MultipartReader;

/** A {@code multipart/form-data} body: its plain fields, and the one file part stored as it streams in ({@code filename} may be null). */
record Form(Map<String, String> fields, String filename, Blob file) {

    private static final int MAX_FIELD_BYTES = 64 * 1024;

    static boolean isMultipart(Call call) {
        String type = call.header("Content-Type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
    }

    static Form read(Call call, Storage storage) throws IOException {
        String boundary = boundary(call.header("Content-Type"));
        MultipartReader reader = new MultipartReader(call.body(), boundary);
        Map<String, String> fields = new HashMap<>();
        String filename = null;
        Blob file = null;
        for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
            // The SDKs send bytes without a filename: the "file" field is the file either way.
            if ((part.headers().isFile() || "file".equals(part.headers().name())) && file == null) {
                filename = part.headers().filename();
                file = storage.read(part.content());
            } else {
                fields.put(part.headers().name(), new String(part.content().readNBytes(MAX_FIELD_BYTES), StandardCharsets.UTF_8));
            }
        }
        return new Form(fields, filename, file);
    }

    static String boundary(String contentType) {
        for (String parameter : contentType.split(";")) {
            String trimmed = parameter.strip();
            if (trimmed.regionMatches(true, 0, "boundary=", 0, 9)) {
                return trimmed.substring(9).replace("\"", "");
            }
        }
        throw ApiError.invalid("The multipart Content-Type has no boundary.", null);
    }
}
