package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.SandboxGatewayApplication;
import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.MerkleProofs;
import com.sandboxgateway.audit.tlog.NoteVerifier;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The transparency log end to end, on PostgreSQL: code runs through the gateway, an admin has the tree
 * head signed, the checkpoint lands in a file witness, proofs verify against it; then a row is changed
 * behind the gateway's back and the offline verifier, run as its own process on a fresh export and the
 * witnessed checkpoint, fails and names that record.
 */
class AuditTransparencyTest extends GatewayIntegrationTest {

    private static final String SCHEMA = "audit_tlog_e2e";
    private static final String DB = LocalPostgres.URL;
    private static final Path WORK = Path.of("target", "audit-tlog-e2e");
    private static final Path WITNESS = WORK.resolve("witness/checkpoints.txt");

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void transparencyLog(DynamicPropertyRegistry registry) throws SQLException, IOException {
        try (Connection connection = DriverManager.getConnection(DB, "postgres", ""); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
        Files.deleteIfExists(WITNESS);
        registry.add("spring.datasource.url", () -> DB + "?currentSchema=" + SCHEMA);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        registry.add("spring.flyway.schemas", () -> SCHEMA);
        registry.add("gateway.audit.spool-dir", () -> WORK.resolve("spool").toString());
        registry.add("gateway.audit.signing-key", () -> Base64.getEncoder().encodeToString("an e2e test seed of 32 bytes!!!!".getBytes()));
        registry.add("gateway.audit.log-origin", () -> "audit.test/sandbox-gateway");
        registry.add("gateway.audit.checkpoint-interval", () -> "1h");
        registry.add("gateway.audit.witness.file", WITNESS::toString);
        registry.add("gateway.reaper.enabled", () -> "false");
    }

    @Test
    void shouldProveTheLogAgainstAWitnessedCheckpointAndNameARecordChangedBehindItsBack() throws Exception {
        runCode();
        runCode();

        HttpResponse<String> signed = call("POST", "/actuator/audit/checkpoint");
        HttpResponse<String> latest = call("GET", "/actuator/audit/checkpoint");
        HttpResponse<String> key = call("GET", "/actuator/audit/checkpoint/key");

        assertThat(signed.statusCode()).isEqualTo(200);
        assertThat(latest.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        assertThat(latest.body()).isEqualTo(signed.body());
        assertThat(key.body()).startsWith("audit.test/sandbox-gateway+");
        Checkpoint checkpoint = Checkpoint.parse(NoteVerifier.parse(key.body()).open(signed.body()));
        assertThat(checkpoint.origin()).isEqualTo("audit.test/sandbox-gateway");
        assertThat(NoteVerifier.split(Files.readString(WITNESS))).containsExactly(signed.body());

        JsonNode records = json.readTree(call("GET", "/actuator/audit?kind=CODE_EXECUTION").body()).path("records");
        assertThat(records).hasSize(2).allSatisfy(record -> {
            assertThat(record.path("seq").asLong()).isPositive();
            assertThat(Base64.getDecoder().decode(record.path("leafHash").asString())).hasSize(32);
        });
        long seq = records.get(1).path("seq").asLong();
        JsonNode inclusion = json.readTree(call("GET", "/actuator/audit/proof/inclusion?seq=" + seq + "&size=" + checkpoint.size()).body());
        assertThat(MerkleProofs.verifyInclusion(Base64.getDecoder().decode(records.get(1).path("leafHash").asString()), seq - 1,
                checkpoint.size(), hashes(inclusion.path("proof")), checkpoint.root())).isTrue();
        runCode();
        JsonNode now = json.readTree(call("GET", "/actuator/audit/proof/inclusion?seq=1&size=" + (checkpoint.size() + 2)).body());
        JsonNode consistency = json.readTree(call("GET", "/actuator/audit/proof/consistency?from=" + checkpoint.size() + "&to="
                + (checkpoint.size() + 2)).body());
        assertThat(MerkleProofs.verifyConsistency(checkpoint.size(), checkpoint.size() + 2, checkpoint.root(),
                Base64.getDecoder().decode(now.path("rootHash").asString()), hashes(consistency.path("proof")))).isTrue();
        assertThat(call("GET", "/actuator/audit/proof/inclusion?seq=1&size=" + (checkpoint.size() + 99)).statusCode()).isEqualTo(400);

        Path keyFile = Files.writeString(WORK.resolve("key.pub"), key.body());
        Verification intact = verify(export(), keyFile);
        assertThat(intact.status()).as(intact.output()).isZero();
        assertThat(intact.output()).contains("OK: " + (checkpoint.size() + 2) + " records");

        String recordId = records.get(0).path("record").path("recordId").asString();
        long changed = records.get(0).path("seq").asLong();
        try (Connection connection = DriverManager.getConnection(DB + "?currentSchema=" + SCHEMA, "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE audit_record SET outputs = '[]' WHERE seq = " + changed);
        }

        Verification tampered = verify(export(), keyFile);
        assertThat(tampered.status()).as(tampered.output()).isEqualTo(1);
        assertThat(tampered.output()).contains("FAILED: record seq " + changed + " (record_id " + recordId + ")");
    }

    private void runCode() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_")))));
        sdk(CAROL_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").build());
    }

    private Path export() throws IOException, InterruptedException {
        HttpResponse<String> export = call("GET", "/actuator/audit/export");
        assertThat(export.statusCode()).isEqualTo(200);
        return Files.writeString(WORK.resolve("records.jsonl"), export.body());
    }

    /** The verifier as an auditor runs it: its own JVM, the gateway's main class, nothing but the three files. */
    private static Verification verify(Path export, Path key) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SandboxGatewayApplication.class.getName(), "audit-verify",
                "--export", export.toString(), "--checkpoint", WITNESS.toString(), "--public-key", key.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Verification(process.exitValue(), output);
    }

    private HttpResponse<String> call(String method, String path) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Authorization", "Bearer " + ADMIN_KEY).header("Accept", path.contains("export") ? "application/x-ndjson" : "*/*")
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (method.equals("POST")) {
            // Actuator write operations take JSON (here: none).
            request.header("Content-Type", "application/json");
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static List<byte[]> hashes(JsonNode array) {
        List<byte[]> hashes = new ArrayList<>();
        array.forEach(hash -> hashes.add(Base64.getDecoder().decode(hash.asString())));
        return hashes;
    }

    private record Verification(int status, String output) {
    }
}
