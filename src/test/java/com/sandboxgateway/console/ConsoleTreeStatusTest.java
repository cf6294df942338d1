package com.sandboxgateway.console;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.NoteVerifier;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A record's page says where it stands against the newest signed checkpoint, on PostgreSQL: none yet,
 * proven once one is signed, not yet covered when it came after it, and not verified once its row, or the
 * checkpoint's, is changed behind the gateway's back.
 */
class ConsoleTreeStatusTest extends GatewayIntegrationTest {

    private static final String SCHEMA = "console_tree_status";
    private static final String DB = LocalPostgres.URL;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern BLOCK_LINK = Pattern.compile("href=\"/console/records/(\\d+)\"");
    private static final Pattern TREE = Pattern.compile("(?s)<h2 id=\"tree-h\">Merkle tree</h2>\\s*<p( class=\"(ok|problem)\")?>([^<]*)</p>"
            + "<dl class=\"facts\"><dt>Leaf hash \\(base64\\)</dt><dd><code>([^<]+)</code>");

    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void signedCheckpoints(DynamicPropertyRegistry registry) throws SQLException {
        try (Connection connection = DriverManager.getConnection(DB, "postgres", ""); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
        registry.add("spring.datasource.url", () -> DB + "?currentSchema=" + SCHEMA);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        registry.add("spring.flyway.schemas", () -> SCHEMA);
        registry.add("gateway.audit.spool-dir", () -> Path.of("target", "console-tree-status", "spool").toString());
        registry.add("gateway.audit.signing-key", () -> Base64.getEncoder().encodeToString("console tree status test seed 32".getBytes()));
        registry.add("gateway.audit.log-origin", () -> "console.test/sandbox-gateway");
        registry.add("gateway.audit.checkpoint-interval", () -> "1h");
        registry.add("gateway.reaper.enabled", () -> "false");
    }

    @Test
    void shouldShowTheLeafHashAndWhetherTheLatestSignedCheckpointProvesTheRecord() throws Exception {
        String session = "sess-" + UUID.randomUUID();
        runCode(session, "print('first')");
        runCode(session, "print('second')");
        List<Long> blocks = blocks(session);
        long first = blocks.get(0);
        long second = blocks.get(1);

        Tree unsigned = tree(first);
        assertThat(unsigned.verdict()).startsWith("No checkpoint yet");
        assertThat(unsigned.style()).isNull();
        String proofLeaf = JSON.readTree(call("GET", "/actuator/audit/proof/inclusion?seq=" + first + "&size=" + first).body())
                .path("leafHash").asString();
        assertThat(unsigned.leafHash()).isEqualTo(proofLeaf);

        HttpResponse<String> signed = call("POST", "/actuator/audit/checkpoint");
        assertThat(signed.statusCode()).isEqualTo(200);
        String key = call("GET", "/actuator/audit/checkpoint/key").body();
        long size = Checkpoint.parse(NoteVerifier.parse(key).open(signed.body())).size();
        assertThat(tree(first)).isEqualTo(new Tree("ok", "Proven: its inclusion proof verifies against the latest signed checkpoint "
                + "(tree size " + size + ").", proofLeaf));
        assertThat(tree(second).style()).isEqualTo("ok");

        runCode(session, "print('third')");
        long third = blocks(session).get(2);
        assertThat(tree(third).verdict()).isEqualTo("Not in a signed checkpoint yet: the latest covers a tree of " + size
                + " records; the next one (every gateway.audit.checkpoint-interval) includes this record.");

        sql("UPDATE audit_record SET outputs = '[]' WHERE seq = " + first);
        Tree changed = tree(first);
        assertThat(changed.style()).isEqualTo("problem");
        assertThat(changed.verdict()).isEqualTo("Does not verify: the leaf hash of its content does not lead to the signed root: "
                + "the record or the tree was changed after the checkpoint.");
        assertThat(changed.leafHash()).isNotEqualTo(proofLeaf);
        assertThat(tree(second).style()).as("the other records still verify").isEqualTo("ok");

        // A checkpoint rewritten in the database to match a rewritten tree no longer carries the gateway's signature.
        String root = Base64.getEncoder().encodeToString(Checkpoint.parse(signed.body()).root());
        sql("UPDATE audit_checkpoint SET note = replace(note, '" + root + "', '" + Base64.getEncoder().encodeToString(new byte[32]) + "')");
        Tree forged = tree(second);
        assertThat(forged.style()).isEqualTo("problem");
        assertThat(forged.verdict()).startsWith("Does not verify: the newest checkpoint in the database does not verify with this "
                + "gateway's key (the signature by console.test/sandbox-gateway does not match the note)");
    }

    /** The record page's Merkle tree section: its style (ok, problem or none), verdict and leaf hash. */
    private record Tree(String style, String verdict, String leafHash) {
    }

    private Tree tree(long seq) throws IOException, InterruptedException {
        HttpResponse<String> page = call("GET", "/console/records/" + seq);
        assertThat(page.statusCode()).isEqualTo(200);
        Matcher section = TREE.matcher(page.body());
        assertThat(section.find()).as(page.body()).isTrue();
        return new Tree(section.group(2), section.group(3).replace("&#39;", "'"), section.group(4));
    }

    private List<Long> blocks(String session) throws IOException, InterruptedException {
        List<Long> seqs = new ArrayList<>();
        Matcher link = BLOCK_LINK.matcher(call("GET", "/console/search?by=session&q=" + session).body());
        while (link.find()) {
            seqs.add(Long.parseLong(link.group(1)));
        }
        return seqs;
    }

    private void runCode(String session, String code) {
        ObjectNode response = (ObjectNode) JSON.readTree(example("responses.create.response.completed.json"));
        String id = UUID.randomUUID().toString().replace("-", "");
        response.put("id", "resp_" + id);
        ObjectNode call = (ObjectNode) response.path("output").get(0);
        call.put("id", "ci_" + id).put("container_id", "cntr_" + id).put("code", code);
        openAi.stubFor(post("/v1/responses").willReturn(okJson(JSON.writeValueAsString(response))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("run it")
                .putAdditionalHeader("X-Gateway-Session", session).build());
    }

    private static void sql(String update) throws SQLException {
        try (Connection connection = DriverManager.getConnection(DB + "?currentSchema=" + SCHEMA, "postgres", "");
             Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate(update)).isEqualTo(1);
        }
    }

    private HttpResponse<String> call(String method, String path) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Authorization", "Bearer " + ADMIN_KEY).method(method, HttpRequest.BodyPublishers.noBody());
        if (method.equals("POST")) {
            // Actuator write operations take JSON (here: none).
            request.header("Content-Type", "application/json");
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
