package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.audit.tlog.NoteSigner;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The offline verifier on exports of a real store: what it accepts, and the record it names when it does not. */
class AuditVerifyCommandTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final NoteSigner SIGNER = NoteSigner.of("audit.example/gateway", Base64.getEncoder().encodeToString(new byte[32]));

    @TempDir
    Path dir;

    private DataSource dataSource;
    private JdbcAuditStore store;
    private Path checkpoints;
    private Path key;

    @BeforeEach
    void twelveRecordsCheckpointedAtFiveAndTwelve() throws IOException {
        dataSource = AuditStores.h2();
        store = AuditStores.store(dataSource);
        JdbcAuditTree tree = new JdbcAuditTree(JdbcClient.create(dataSource));
        checkpoints = dir.resolve("checkpoints.txt");
        key = dir.resolve("key.pub");
        Files.writeString(key, SIGNER.verifierKey() + "\n");
        for (int i = 1; i <= 12; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
            if (i == 5 || i == 12) {
                CheckpointWitness.file(checkpoints).publish(SIGNER.sign(tree.head(SIGNER.name()).body()));
            }
        }
    }

    @Test
    void shouldVerifyAnIntactExport() throws IOException {
        Result result = verify(export());

        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).contains("OK: 12 records").contains("2 checkpoint(s) signed by audit.example/gateway")
                .contains("tree size 12");
    }

    @Test
    void shouldExportJsonFieldsAsJsonAndVerifyThem() throws IOException {
        AuditRecord cut = JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID());
        store.append(new AuditRecord(cut.recordId(), cut.kind(), cut.callId(), cut.requestId(), cut.upstreamRequestId(), cut.user(),
                cut.team(), cut.session(), cut.responseId(), cut.containerId(), cut.model(), cut.status(), cut.code(), cut.codeSha256(),
                "[{\"type\":\"logs\",\"lo", true, "{\"outputs_cap_chars\": 16,\"size\":1.50}", cut.createdAt(), List.of()));

        List<String> lines = Files.readAllLines(export());

        assertThat(JSON.readTree(lines.getFirst()).path("record").path("outputs").get(0).path("logs").asString()).isEqualTo("hi\n");
        JsonNode last = JSON.readTree(lines.getLast()).path("record");
        assertThat(last.path("outputs").asString()).as("outputs cut at the cap are not JSON").isEqualTo("[{\"type\":\"logs\",\"lo");
        assertThat(last.path("details").asString()).as("JSON that would not come back as the same text stays text")
                .isEqualTo("{\"outputs_cap_chars\": 16,\"size\":1.50}");
        Result result = verify(Files.write(dir.resolve("mixed.jsonl"), lines));
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).contains("OK: 13 records");
    }

    @Test
    void shouldVerifyAnExportWrittenBeforeJsonFieldsWereJson() throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(export())) {
            ObjectNode stored = (ObjectNode) JSON.readTree(line);
            ObjectNode record = (ObjectNode) stored.path("record");
            record.put("outputs", JSON.writeValueAsString(record.path("outputs")));
            lines.add(JSON.writeValueAsString(stored));
        }
        assertThat(lines.getFirst()).contains("\"outputs\":\"[{\\\"type\\\"");

        Result result = verify(Files.write(dir.resolve("strings.jsonl"), lines));

        assertThat(result.status()).as(result.output()).isZero();
    }

    @Test
    void shouldNameARecordChangedInTheDatabase() throws IOException {
        String recordId = sql("SELECT record_id FROM audit_record WHERE seq = 7");
        JdbcClient.create(dataSource).sql("UPDATE audit_record SET code = 'print(\"nothing to see\")' WHERE seq = 7").update();

        Result result = verify(export());

        assertThat(result.status()).isEqualTo(1);
        assertThat(result.output()).contains("FAILED: record seq 7 (record_id " + recordId + ") does not match its leaf hash");
    }

    @Test
    void shouldNameARecordDeletedFromTheDatabase() throws IOException {
        JdbcClient.create(dataSource).sql("DELETE FROM audit_record WHERE seq = 4").update();

        Result result = verify(export());

        assertThat(result.status()).isEqualTo(1);
        assertThat(result.output()).contains("FAILED: record seq 4 is not where it belongs: seq 5 comes in its place");
    }

    @Test
    void shouldNameAReorderedPair() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(export()));
        Collections.swap(lines, 5, 6);
        Path reordered = Files.write(dir.resolve("reordered.jsonl"), lines);

        assertThat(verify(reordered).output()).contains("FAILED: record seq 6 is not where it belongs: seq 7 comes in its place");

        // Swapped in the database instead, each row renumbered into the other's place.
        JdbcClient jdbc = JdbcClient.create(dataSource);
        jdbc.sql("UPDATE audit_record SET seq = -6 WHERE seq = 6").update();
        jdbc.sql("UPDATE audit_record SET seq = 6 WHERE seq = 7").update();
        jdbc.sql("UPDATE audit_record SET seq = 7 WHERE seq = -6").update();
        assertThat(verify(export()).output()).contains("FAILED: record seq 6 (record_id").contains("does not link to the record before it");
    }

    @Test
    void shouldCatchARewriteThatRecomputedEveryHash() throws IOException {
        AuditChain chain = new AuditChain(JSON);
        List<StoredRecord> records = records();
        List<String> forged = new ArrayList<>();
        String previous = AuditChain.GENESIS;
        for (StoredRecord stored : records) {
            AuditRecord record = stored.seq() == 3 ? withCode(stored.record(), "print('rewritten')") : stored.record();
            AuditChain.Hashes hashes = chain.hashes(previous, stored.seq(), record);
            forged.add(JSON.writeValueAsString(new StoredRecord(stored.seq(), record, previous, hashes.chainHash(),
                    Base64.getEncoder().encodeToString(hashes.leafHash()))));
            previous = hashes.chainHash();
        }

        Result result = verify(Files.write(dir.resolve("forged.jsonl"), forged));

        assertThat(result.status()).isEqualTo(1);
        assertThat(result.output()).contains("FAILED: records 1..5 do not match the signed checkpoint of tree size 5");
    }

    @Test
    void shouldNameTheFirstMissingRecordOfATruncatedExport() throws IOException {
        List<String> lines = Files.readAllLines(export());
        Path truncated = Files.write(dir.resolve("truncated.jsonl"), lines.subList(0, 9));

        assertThat(verify(truncated).output()).contains("FAILED: the signed checkpoint covers 12 records but the export ends at seq 9: "
                + "record seq 10 and after are missing");
    }

    @Test
    void shouldRefuseACheckpointNotSignedByTheKey() throws IOException {
        NoteSigner other = NoteSigner.of("audit.example/gateway", Base64.getEncoder().encodeToString(new byte[] {1, 2, 3, 4, 5, 6, 7, 8,
                9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}));
        Files.writeString(checkpoints, other.sign("audit.example/gateway\n12\n" + Base64.getEncoder().encodeToString(new byte[32]) + "\n"));

        Result result = verify(export());

        assertThat(result.status()).isEqualTo(1);
        assertThat(result.output()).contains("does not verify").contains("no signature by audit.example/gateway");
    }

    @Test
    void shouldExplainItsUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertThat(AuditVerifyCommand.run(List.of("--export", "x"), new PrintStream(out, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: audit-verify --export");
    }

    private Path export() throws IOException {
        List<String> lines = records().stream().map(JSON::writeValueAsString).toList();
        return Files.write(dir.resolve("records-" + UUID.randomUUID() + ".jsonl"), lines);
    }

    private List<StoredRecord> records() {
        List<StoredRecord> records = new ArrayList<>();
        store.forEach(new AuditQuery(null, null, null, null, null, null, null, null, null, 1000), records::add);
        return records;
    }

    private Result verify(Path export) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = AuditVerifyCommand.run(List.of("--export", export.toString(), "--checkpoint", checkpoints.toString(),
                "--public-key", key.toString()), new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Result(status, out.toString(StandardCharsets.UTF_8));
    }

    private String sql(String query) {
        return JdbcClient.create(dataSource).sql(query).query(String.class).single();
    }

    private static AuditRecord withCode(AuditRecord r, String code) {
        return new AuditRecord(r.recordId(), r.kind(), r.callId(), r.requestId(), r.upstreamRequestId(), r.user(), r.team(), r.session(),
                r.responseId(), r.containerId(), r.model(), r.status(), code, r.codeSha256(), r.outputs(), r.outputsTruncated(),
                r.details(), r.createdAt(), r.flags());
    }

    private record Result(int status, String output) {
    }
}
