package com.sandboxgateway.support;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.springframework.transaction.support.TransactionOperations;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.multipart.MultipartUpload;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.store.GroupCommit;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Exchanges for plain unit tests of steps and inspectors: no Spring, no HTTP. */
public final class Exchanges {

    public static final Principal ALICE = new Principal("alice", "analytics", Set.of("user"));
    /** The end of a multipart body with the boundary {@code b}. */
    public static final String END = "--b--\r\n";
    /** Commits the writes of a settlement as they come, in no transaction: for chains that need no database. */
    public static final GroupCommit WITHOUT_TRANSACTIONS = new GroupCommit(TransactionOperations.withoutTransaction());
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Exchanges() {
    }

    /** A bodiless request of alice's on the route (its ids are {@code id_1}, {@code id_2}, ...). */
    public static Exchange on(Route route) {
        return new Exchange("gwreq_test", ALICE, match(route), path(route), null, null, null, new RequestBody.None());
    }

    /** A JSON request of alice's on the route. */
    public static Exchange json(Route route, String body) {
        ObjectNode object = (ObjectNode) JSON.readTree(body);
        return new Exchange("gwreq_test", ALICE, match(route), path(route), null, null, null,
                new RequestBody.Json(object, body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /**
     * A multipart upload of alice's on the route, its parts separated by the boundary {@code b}; it spools to {@code spool}.
     *
     * @param profile the {@code X-Gateway-Dataset-Profile} it names, or {@code null}
     */
    public static Exchange multipart(Route route, String body, String profile, Path spool) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        MultipartUpload upload = new MultipartUpload(new ByteArrayInputStream(bytes), bytes.length,
                "multipart/form-data; boundary=b", spool);
        return new Exchange("gwreq_test", ALICE, match(route), path(route), null, null, profile, new RequestBody.Multipart(upload));
    }

    /** One part of a multipart body with the boundary {@code b}: a file when {@code filename} is given, else a field. */
    public static String part(String name, String filename, String content) {
        return "--b\r\nContent-Disposition: form-data; name=\"" + name + "\""
                + (filename == null ? "" : "; filename=\"" + filename + "\"") + "\r\n\r\n" + content + "\r\n";
    }

    /** The JSON tree of a literal, for answers. */
    public static tools.jackson.databind.JsonNode tree(String json) {
        return JSON.readTree(json);
    }

    private static RouteMatch match(Route route) {
        Map<String, String> ids = new java.util.HashMap<>();
        for (String segment : route.segments()) {
            if (segment.startsWith("{")) {
                ids.put(segment.substring(1, segment.length() - 1), "id_" + (ids.size() + 1));
            }
        }
        return new RouteMatch(route, ids);
    }

    private static String path(Route route) {
        StringBuilder path = new StringBuilder();
        int id = 1;
        for (String segment : route.segments()) {
            path.append('/').append(segment.startsWith("{") ? "id_" + id++ : segment);
        }
        return path.toString();
    }
}
