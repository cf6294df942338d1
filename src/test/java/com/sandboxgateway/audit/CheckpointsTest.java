package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToIgnoreCase;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.NoteSigner;
import com.sandboxgateway.audit.tlog.NoteVerifier;
import com.sandboxgateway.upstream.NotePublisher;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/** Signed checkpoints over a PostgreSQL audit store, kept, recorded and witnessed by a file and an HTTP endpoint. */
class CheckpointsTest {

    private static final String SEED = Base64.getEncoder().encodeToString(new byte[32]);

    @TempDir
    Path dir;

    private final WireMockServer witnessService = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private JdbcAuditStore store;
    private JdbcAuditTree tree;
    private Checkpoints checkpoints;
    private NoteSigner signer;

    @BeforeEach
    void start() {
        witnessService.start();
        witnessService.stubFor(post("/checkpoints").willReturn(aResponse().withStatus(202)));
        var dataSource = AuditStores.postgres("audit_checkpoints_test", 5432);
        store = AuditStores.store(dataSource);
        tree = new JdbcAuditTree(org.springframework.jdbc.core.simple.JdbcClient.create(dataSource));
        signer = NoteSigner.of("audit.example/gateway", SEED);
        URI url = URI.create(witnessService.baseUrl() + "/checkpoints");
        NotePublisher publisher = new NotePublisher(Duration.ofSeconds(2));
        List<CheckpointWitness> witnesses = List.of(CheckpointWitness.file(dir.resolve("witness/checkpoints.txt")),
                new CheckpointWitness() {
                    @Override
                    public String name() {
                        return "http " + url;
                    }

                    @Override
                    public void publish(String note) throws IOException {
                        publisher.post(url, note);
                    }
                });
        checkpoints = new Checkpoints(tree, store::append, signer, witnesses, JsonMapper.builder().build(), Clock.systemUTC(), meters);
    }

    @AfterEach
    void stop() {
        witnessService.stop();
    }

    @Test
    void shouldSignTheTreeHeadKeepItRecordItAndHandItToEveryWitness() throws IOException {
        for (int i = 0; i < 9; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        }

        String note = checkpoints.sign("root");

        Checkpoint checkpoint = Checkpoint.parse(NoteVerifier.parse(checkpoints.verifierKey()).open(note));
        assertThat(checkpoint.origin()).isEqualTo("audit.example/gateway");
        assertThat(checkpoint.size()).isEqualTo(9);
        assertThat(checkpoint.root()).isEqualTo(MerkleRoots.of(store, 9));
        assertThat(checkpoints.latest()).hasValue(note);
        StoredRecord recorded = last(store);
        assertThat(recorded.seq()).isEqualTo(10);
        assertThat(recorded.record().kind()).isEqualTo(AuditRecord.Kind.CHECKPOINT);
        assertThat(recorded.record().user()).isEqualTo("root");
        assertThat(recorded.record().details()).contains("\"tree_size\":9").contains(Base64.getEncoder().encodeToString(checkpoint.root()));
        assertThat(NoteVerifier.split(Files.readString(dir.resolve("witness/checkpoints.txt")))).containsExactly(note);
        witnessService.verify(1, postRequestedFor(urlEqualTo("/checkpoints")).withRequestBody(equalTo(note))
                .withHeader("Content-Type", equalToIgnoreCase("text/plain; charset=utf-8")));
    }

    @Test
    void shouldSignOnScheduleOnlyWhenRecordsOtherThanItsOwnWereAdded() throws IOException {
        store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        checkpoints.signIfGrown();
        checkpoints.signIfGrown();
        store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        checkpoints.signIfGrown();

        List<String> witnessed = NoteVerifier.split(Files.readString(dir.resolve("witness/checkpoints.txt")));
        assertThat(witnessed).hasSize(2);
        assertThat(witnessed.stream().map(note -> Checkpoint.parse(signer.verifier().open(note)).size())).containsExactly(1L, 3L);
        assertThat(Checkpoint.parse(signer.verifier().open(checkpoints.sign("root"))).size())
                .as("an admin's demand also covers the scheduled checkpoint's record").isEqualTo(4);
    }

    @Test
    void shouldKeepTheCheckpointWhenAWitnessIsDown() throws IOException {
        witnessService.stubFor(post("/checkpoints").willReturn(aResponse().withStatus(503)));
        store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));

        String note = checkpoints.sign("root");

        assertThat(checkpoints.latest()).hasValue(note);
        assertThat(Files.readString(dir.resolve("witness/checkpoints.txt"))).contains(note);
        assertThat(meters.get("gateway.audit.witness.failures").tag("witness", "http").counter().count()).isEqualTo(1);
    }

    @Test
    void shouldRefuseABadSigningKeyNamingTheSettingButNotTheKey() throws Exception {
        String secret = "c2VjcmV0LWtleS1vZi10aGUtb3BlcmF0b3I=";
        Path pem = dir.resolve("audit-key.pem");
        Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");

        assertThatThrownBy(() -> Checkpoints.signer(properties(secret, "audit.example/gateway")))
                .hasMessageContaining("gateway.audit.signing-key").hasMessageContaining("32 bytes").message().doesNotContain(secret);
        assertThatThrownBy(() -> Checkpoints.signer(properties("file:" + dir.resolve("missing.pem"), "audit.example/gateway")))
                .hasMessageContaining("gateway.audit.signing-key").hasMessageContaining("missing.pem");
        assertThatThrownBy(() -> Checkpoints.signer(properties(SEED, "two words"))).hasMessageContaining("gateway.audit.log-origin");
        assertThat(Checkpoints.signer(properties("file:" + pem, "audit.example/gateway")).name()).isEqualTo("audit.example/gateway");
    }

    private static AuditProperties properties(String key, String origin) {
        return new AuditProperties(Path.of("spool"), DataSize.ofKilobytes(64), null, Duration.ofSeconds(5), key, origin,
                Duration.ofMinutes(5), new AuditProperties.Witness(null, List.of(), Duration.ofSeconds(5)));
    }

    private static StoredRecord last(JdbcAuditStore store) {
        List<StoredRecord> records = new ArrayList<>();
        store.forEach(new AuditQuery(null, null, null, null, null, null, null, null, null, 1000), records::add);
        return records.getLast();
    }
}
