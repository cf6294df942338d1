package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.audit.tlog.MerkleHash;
import com.sandboxgateway.audit.tlog.MerkleProofs;
import com.sandboxgateway.audit.tlog.TreeFrontier;

import tools.jackson.databind.json.JsonMapper;

/** The Merkle tree the store keeps over the records: in tables on H2 and on PostgreSQL, and in the embedded H2's maps. */
class AuditTreeTest {

    private static final AuditChain CHAIN = new AuditChain(JsonMapper.builder().build());

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("h2", AuditStores.h2()), Arguments.of("postgres", AuditStores.postgres("audit_tree_test", 5432)));
    }

    /** The tables' stores and the embedded default's, in its file's maps. */
    static Stream<Arguments> stores() {
        return Stream.of(Arguments.of("h2", AuditStores.store(AuditStores.h2())),
                Arguments.of("postgres", AuditStores.store(AuditStores.postgres("audit_tree_test", 5432))),
                Arguments.of("h2 maps", AuditStores.embedded(AuditStores.h2())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void shouldProveEveryRecordInEveryTreeSizeAndEveryTreeExtendsTheEarlierOnes(String name, AuditStore store) {
        AuditTree tree = store.tree();
        for (int i = 0; i < 130; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        }
        List<StoredRecord> records = all(store);
        List<byte[]> leaves = records.stream().map(r -> CHAIN.hashes(r.prevHash(), r.seq(), r.record()).leafHash()).toList();
        assertThat(records).allSatisfy(r -> assertThat(r.leafHash())
                .isEqualTo(Base64.getEncoder().encodeToString(leaves.get((int) r.seq() - 1))));

        for (int size = 1; size <= 130; size++) {
            byte[] root = root(leaves.subList(0, size));
            for (long seq : new long[] {1, (size + 1) / 2, size}) {
                InclusionProof proof = tree.inclusion(seq, size);
                assertThat(proof.rootHash()).isEqualTo(Base64.getEncoder().encodeToString(root));
                assertThat(MerkleProofs.verifyInclusion(leaves.get((int) seq - 1), seq - 1, size, decode(proof.proof()), root))
                        .as("record %d in tree %d", seq, size).isTrue();
            }
            ConsistencyProof consistency = tree.consistency(size, 130);
            assertThat(MerkleProofs.verifyConsistency(size, 130, root, root(leaves), decode(consistency.proof())))
                    .as("%d -> 130", size).isTrue();
        }
        assertThat(tree.head("log").root()).isEqualTo(root(leaves));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldMakeRecordsWrittenBeforeTheTreeItsFirstLeavesAndKeepTheChain(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        JdbcAuditTree tree = new JdbcAuditTree(JdbcClient.create(dataSource));
        for (int i = 0; i < 25; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        }
        byte[] root = tree.head("log").root();
        // As the store was before the tree: records and chain, no leaves.
        JdbcClient jdbc = JdbcClient.create(dataSource);
        jdbc.sql("UPDATE audit_record SET leaf_hash = NULL").update();
        jdbc.sql("UPDATE audit_chain SET tree_size = 0, tree_frontier = ''").update();
        jdbc.sql("DELETE FROM audit_tree_node").update();

        assertThat(store.catchUpTree()).isEqualTo(25);
        assertThat(tree.head("log").root()).isEqualTo(root);
        assertThat(all(store)).allSatisfy(r -> assertThat(r.leafHash()).isNotNull());

        store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        assertThat(tree.head("log").size()).isEqualTo(26);
        assertThat(store.verify().intact()).isTrue();
        assertThat(store.verify().checked()).isEqualTo(26);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void shouldKeepProofsAfterRetentionDeletesTheOldestRecords(String name, AuditStore store) {
        AuditTree tree = store.tree();
        Instant old = Instant.parse("2020-01-01T00:00:00Z");
        for (int i = 0; i < 5; i++) {
            store.append(new AuditRecord(UUID.randomUUID().toString(), AuditRecord.Kind.CODE_EXECUTION, "old-" + UUID.randomUUID(),
                    null, null, "alice", "analytics", null, null, null, null, "completed", "x", null, null, false, null, old));
        }
        byte[] rootOfFive = tree.head("log").root();
        store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));

        assertThat(store.deleteOlderThan(Instant.parse("2021-01-01T00:00:00Z"))).isEqualTo(5);

        byte[] rootOfSeven = tree.head("log").root();
        ConsistencyProof consistency = tree.consistency(5, 7);
        assertThat(MerkleProofs.verifyConsistency(5, 7, rootOfFive, rootOfSeven, decode(consistency.proof()))).isTrue();
        InclusionProof inclusion = tree.inclusion(6, 7);
        assertThat(MerkleProofs.verifyInclusion(Base64.getDecoder().decode(inclusion.leafHash()), 5, 7, decode(inclusion.proof()),
                rootOfSeven)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void shouldRefuseProofsOutsideTheTree(String name, AuditStore store) {
        AuditTree tree = store.tree();
        for (int i = 0; i < 3; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + UUID.randomUUID()));
        }

        assertThatThrownBy(() -> tree.inclusion(1, 4)).hasMessageContaining("between 1 and 3");
        assertThatThrownBy(() -> tree.inclusion(3, 2)).hasMessageContaining("1..2");
        assertThatThrownBy(() -> tree.consistency(0, 3)).hasMessageContaining("between 1 and 3");
        assertThatThrownBy(() -> tree.consistency(3, 2)).hasMessageContaining("must not exceed");
    }

    private static List<StoredRecord> all(AuditStore store) {
        List<StoredRecord> records = new ArrayList<>();
        store.forEach(new AuditQuery(null, null, null, null, null, null, null, null, null, 1000), records::add);
        return records;
    }

    private static byte[] root(List<byte[]> leaves) {
        TreeFrontier frontier = TreeFrontier.empty();
        leaves.forEach(leaf -> frontier.append(leaf, (level, index, hash) -> { }));
        return leaves.isEmpty() ? MerkleHash.empty() : frontier.root();
    }

    private static List<byte[]> decode(List<String> hashes) {
        return hashes.stream().map(Base64.getDecoder()::decode).toList();
    }
}
