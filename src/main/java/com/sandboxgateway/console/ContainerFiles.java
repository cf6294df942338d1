package com.sandboxgateway.console;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The files of a block's container, fetched from OpenAI while the container lives: listed on the record's
 * page, images shown through the console. Only PNG, JPEG, GIF and WebP (recognised by their bytes, never
 * by name or OpenAI's content type) are served, so a file cannot run script in the reviewer's browser.
 * Once the container is gone the page names the files the block's code refers to instead.
 */
final class ContainerFiles {

    static final Pattern FILE_ID = Pattern.compile("cfile_[A-Za-z0-9_-]{1,128}");
    private static final Pattern CONTAINER_ID = Pattern.compile("cntr_[A-Za-z0-9_-]{1,128}");
    private static final Pattern MNT_DATA_PATH = Pattern.compile("/mnt/data/[^'\"\\s)]+");
    private static final int MAX_LISTING_BYTES = 1 << 20;
    private static final int MAX_IMAGE_BYTES = 10 << 20;

    private final UpstreamClient upstream;
    private final JsonMapper json;

    ContainerFiles(UpstreamClient upstream, JsonMapper json) {
        this.upstream = upstream;
        this.json = json;
    }

    /** The container's files, or why they cannot be listed. */
    Listing list(String team, String containerId) {
        if (containerId == null || !CONTAINER_ID.matcher(containerId).matches()) {
            return new Listing(List.of(), "the record names no container");
        }
        try (UpstreamResponse answer = get(team, "/v1/containers/" + containerId + "/files?limit=100&order=asc")) {
            if (answer.status() != 200) {
                return new Listing(List.of(), answer.status() == 404 ? "the container has expired or was deleted"
                        : "OpenAI answered " + answer.status());
            }
            List<ContainerFile> files = new ArrayList<>();
            for (JsonNode file : json.readTree(answer.readBody(MAX_LISTING_BYTES)).path("data")) {
                String id = file.path("id").asString("");
                if (FILE_ID.matcher(id).matches()) {
                    files.add(new ContainerFile(id, file.path("path").asString(id), file.path("bytes").asLong(-1),
                            file.path("source").asString("")));
                }
            }
            return new Listing(files, null);
        } catch (GatewayException | IOException | JacksonException e) {
            return new Listing(List.of(), "OpenAI could not be asked (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** One image of the container, when it still exists and really is an image. */
    Optional<Image> image(String team, String containerId, String fileId) {
        if (containerId == null || !CONTAINER_ID.matcher(containerId).matches() || !FILE_ID.matcher(fileId).matches()) {
            return Optional.empty();
        }
        try (UpstreamResponse answer = get(team, "/v1/containers/" + containerId + "/files/" + fileId + "/content")) {
            if (answer.status() != 200) {
                return Optional.empty();
            }
            byte[] bytes = answer.readBody(MAX_IMAGE_BYTES);
            return mediaType(bytes).map(type -> new Image(type, bytes));
        } catch (GatewayException | IOException e) {
            return Optional.empty();
        }
    }

    /** The {@code /mnt/data/...} paths the code names, in order: what the block read or wrote. */
    static Set<String> pathsNamedIn(String code) {
        Set<String> paths = new LinkedHashSet<>();
        if (code != null) {
            Matcher path = MNT_DATA_PATH.matcher(code);
            while (path.find()) {
                paths.add(path.group());
            }
        }
        return paths;
    }

    private UpstreamResponse get(String team, String path) {
        return upstream.send(new UpstreamRequest(team == null ? "console" : team, "GET", path, Map.of("Accept", "*/*"),
                new UpstreamRequest.NoBody(), false));
    }

    private static Optional<String> mediaType(byte[] bytes) {
        if (starts(bytes, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return Optional.of("image/png");
        }
        if (starts(bytes, 0xFF, 0xD8, 0xFF)) {
            return Optional.of("image/jpeg");
        }
        if (starts(bytes, 'G', 'I', 'F', '8')) {
            return Optional.of("image/gif");
        }
        if (starts(bytes, 'R', 'I', 'F', 'F') && bytes.length >= 12 && bytes[8] == 'W' && bytes[9] == 'E' && bytes[10] == 'B'
                && bytes[11] == 'P') {
            return Optional.of("image/webp");
        }
        return Optional.empty();
    }

    private static boolean starts(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** A file in the container as OpenAI lists it. */
    record ContainerFile(String id, String path, long bytes, String source) {

        boolean looksLikeImage() {
            String name = path.toLowerCase(Locale.ROOT);
            return name.endsWith(".png") || name.endsWith(".jpg") || name.endsWith(".jpeg") || name.endsWith(".gif")
                    || name.endsWith(".webp");
        }
    }

    /** @param unavailable why the files could not be listed, or {@code null} */
    record Listing(List<ContainerFile> files, String unavailable) {
    }

    record Image(String mediaType, byte[] bytes) {
    }
}
