package com.sandboxgateway.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

import jakarta.servlet.http.HttpServletRequest;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.multipart.MultipartUpload;
import com.sandboxgateway.policy.RequestBody;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a client's request body in the form its route takes: JSON is parsed (bounded) so the policy
 * steps can inspect it, multipart is left on the wire to stream through.
 */
final class RequestBodies {

    private final JsonMapper json;
    private final int maxJsonBytes;
    private final Path spoolDir;

    RequestBodies(JsonMapper json, int maxJsonBytes, Path spoolDir) {
        this.json = json;
        this.maxJsonBytes = maxJsonBytes;
        this.spoolDir = spoolDir;
    }

    RequestBody read(Route route, HttpServletRequest request) throws IOException {
        String contentType = request.getContentType();
        return switch (route.body()) {
            case NONE -> new RequestBody.None();
            case JSON -> readJson(request);
            case MULTIPART -> stream(request, contentType);
            case JSON_OR_MULTIPART -> isMultipart(contentType) ? stream(request, contentType) : readJson(request);
        };
    }

    private RequestBody readJson(HttpServletRequest request) throws IOException {
        String contentType = request.getContentType();
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw invalid("This route takes a JSON body: send it with 'Content-Type: application/json'.");
        }
        byte[] raw;
        // A body of declared length is read into one array of that size, not through readNBytes' 16 KB chunks.
        long declared = request.getContentLengthLong();
        try (InputStream in = request.getInputStream()) {
            raw = in.readNBytes(declared >= 0 && declared <= maxJsonBytes ? (int) declared : maxJsonBytes + 1);
        }
        if (raw.length > maxJsonBytes) {
            throw new GatewayException(ErrorCode.INVALID_REQUEST,
                    "The JSON body is larger than the gateway accepts (" + maxJsonBytes + " bytes); upload large data as a file.");
        }
        JsonNode parsed;
        try {
            parsed = json.readTree(raw);
        } catch (JacksonException e) {
            // The parser's own message may quote the body, which may hold a secret: report the place only.
            var at = e.getLocation();
            throw invalid("The request body is not valid JSON" + (at == null ? "" : " (line " + at.getLineNr()
                    + ", column " + at.getColumnNr() + ")") + ".");
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw invalid("The request body must be a JSON object.");
        }
        return new RequestBody.Json(object, raw);
    }

    private RequestBody stream(HttpServletRequest request, String contentType) throws IOException {
        if (!isMultipart(contentType)) {
            throw invalid("This route takes a multipart/form-data upload with a 'file' part.");
        }
        return new RequestBody.Multipart(new MultipartUpload(request.getInputStream(), request.getContentLengthLong(), contentType, spoolDir));
    }

    private static boolean isMultipart(String contentType) {
        return contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data");
    }

    private static GatewayException invalid(String message) {
        return new GatewayException(ErrorCode.INVALID_REQUEST, message);
    }
}
