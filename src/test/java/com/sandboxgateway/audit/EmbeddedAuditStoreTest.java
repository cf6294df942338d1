package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import javax.sql.DataSource;

import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.store.H2Maps;

/**
 * The audit trail in the embedded H2's maps: it keeps the chain's guarantees, answers every read as the tables' store
 * does, takes in what an earlier version left in the tables, and starts cleanly from what a crash can leave.
 */
class EmbeddedAuditStoreTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void shouldFormOneLinearChainUnderConcurrentWritersAndStoreEachRecordAndCallOnce() throws Exception {
        EmbeddedAuditStore store = AuditStores.embedded(AuditStores.h2());
        AuditRecord repeated = JdbcAuditStoreTest.execution("ci_repeated");
        try (ExecutorService writers = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        store.append(JdbcAuditStoreTest.execution("call-" + writer + "-" + i));
                        store.append(repeated);
                    }
                }));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
        }

        ChainVerification verification = store.verify();
        assertThat(verification.intact()).as(verification.toString()).isTrue();
        assertThat(verification.checked()).isEqualTo(4001);
        assertThat(store.tree().head("log").size()).isEqualTo(4001);
        assertThat(store.holdsCall("ci_repeated")).isTrue();
        assertThat(store.holdsCall("ci_never")).isFalse();
        assertThat(store.append(JdbcAuditStoreTest.execution("ci_repeated"))).as("another record of a stored call").isFalse();
    }

    @Test
    void shouldAnswerEveryReadAsTheTablesStoreDoes() {
        AuditStore tables = AuditStores.store(AuditStores.h2());
        EmbeddedAuditStore maps = AuditStores.embedded(AuditStores.h2());
        String[] users = {"alice", "bob", "carol"};
        String[] sessions = {"s-1", "s-2", null};
        for (int i = 0; i < 120; i++) {
            AuditRecord.Kind kind = i % 7 == 0 ? AuditRecord.Kind.SHELL_EXECUTION : i % 5 == 0 ? AuditRecord.Kind.POLICY_REFUSAL
                    : AuditRecord.Kind.CODE_EXECUTION;
            AuditRecord record = new AuditRecord(UUID.randomUUID().toString(), kind, kind.isExecution() ? "ci_" + i : null,
                    "gwreq_" + i, null, users[i % 3], i % 2 == 0 ? "analytics" : "finance", sessions[i % 3], "resp_" + i,
                    "cntr_" + i % 4, "gpt-4.1", "completed", kind.isExecution() ? "print(" + i % 6 + ")" : null,
                    kind.isExecution() ? "hash-" + i % 6 : null, null, false, "{\"n\":" + i + "}", T0.plusSeconds(i),
                    i % 4 == 0 ? List.of("env_access") : i % 9 == 0 ? List.of("env_access", "network") : List.of());
            assertThat(maps.append(record)).isEqualTo(tables.append(record)).isTrue();
        }
        List<AuditQuery> queries = List.of(
                query(q -> q), query(q -> q.withUser("bob")), query(q -> q.withTeam("finance")), query(q -> q.withSession("s-2")),
                query(q -> q.withContainer("cntr_3")), query(q -> q.withKind("SHELL_EXECUTION")), query(q -> q.withFlag("network")),
                query(q -> q.withSince(T0.plusSeconds(30)).withUntil(T0.plusSeconds(75))),
                query(q -> q.withUser("alice").withSession("s-1").withFlag("env_access")),
                query(q -> q.withTeam("analytics").withKind("CODE_EXECUTION").withAfter(40L).withLimit(7)),
                query(q -> q.withAfter(100L)), query(q -> q.withLimit(3)));
        for (AuditQuery query : queries) {
            assertThat(maps.query(query)).as(query.toString()).isEqualTo(tables.query(query)).isNotEmpty();
            assertThat(maps.flaggedExecutions(query)).as("flagged " + query).isEqualTo(tables.flaggedExecutions(query));
        }
        assertThat(maps.withCodeHash("hash-2", 5)).isEqualTo(tables.withCodeHash("hash-2", 5)).hasSize(5);
        assertThat(maps.sessionBefore("s-1", 61, 4)).isEqualTo(tables.sessionBefore("s-1", 61, 4)).hasSize(4);
        assertThat(maps.sessionAfter("s-1", 61, 4)).isEqualTo(tables.sessionAfter("s-1", 61, 4)).hasSize(4);
        assertThat(maps.latestCodeDetails("bob", "s-2")).isEqualTo(tables.latestCodeDetails("bob", "s-2")).isPresent();
        assertThat(maps.latestCodeDetails("bob", "s-1")).isEqualTo(tables.latestCodeDetails("bob", "s-1")).isEmpty();
        assertThat(maps.tree().head("log").root()).isEqualTo(tables.tree().head("log").root());
        assertThat(maps.verify()).isEqualTo(tables.verify());

        assertThat(maps.deleteOlderThan(T0.plusSeconds(50))).isEqualTo(tables.deleteOlderThan(T0.plusSeconds(50))).isEqualTo(50);
        assertThat(maps.query(query(q -> q.withUser("bob")))).isEqualTo(tables.query(query(q -> q.withUser("bob"))));
        assertThat(maps.verify()).isEqualTo(tables.verify());
        assertThat(maps.verify().checked()).isEqualTo(70);
    }

    @Test
    void shouldTakeInTheTablesOfAnEarlierVersionAndGoOnFromThere() {
        DataSource dataSource = AuditStores.h2();
        JdbcAuditStore tables = AuditStores.store(dataSource);
        for (int i = 0; i < 30; i++) {
            tables.append(i % 3 == 0 ? flagged("ci_" + i) : JdbcAuditStoreTest.execution("ci_" + i));
        }
        Checkpoint head = tables.tree().head("log");
        assertThat(tables.tree().save(head, "the note", T0)).isTrue();
        List<StoredRecord> before = all(tables);

        EmbeddedAuditStore maps = AuditStores.embedded(dataSource);

        JdbcClient jdbc = JdbcClient.create(dataSource);
        for (String table : List.of("audit_record", "audit_flag", "audit_tree_node", "audit_checkpoint", "audit_chain")) {
            assertThat(jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single()).as(table).isZero();
        }
        assertThat(all(maps)).isEqualTo(before);
        assertThat(maps.query(query(q -> q.withFlag("env_access")))).hasSize(10);
        assertThat(maps.tree().head("log").root()).isEqualTo(head.root());
        assertThat(maps.tree().latestCheckpoint()).contains("the note");
        assertThat(maps.holdsCall("ci_7")).isTrue();
        assertThat(maps.append(JdbcAuditStoreTest.execution("ci_7"))).isFalse();
        assertThat(maps.append(JdbcAuditStoreTest.execution("ci_30"))).isTrue();
        assertThat(maps.verify().intact()).isTrue();
        assertThat(maps.verify().checked()).isEqualTo(31);
        assertThat(maps.tree().consistency(30, 31).proof()).isNotEmpty();
        assertThat(AuditStores.embedded(dataSource).verify().checked()).as("a start after the move").isEqualTo(31);
    }

    @Test
    void shouldStartCleanlyFromWhatACrashLeaves() {
        DataSource dataSource = AuditStores.h2();
        EmbeddedAuditStore.Maps maps = executionsAppended(dataSource, 10);
        // The index was written at a moment before the chain: it lacks the entries of records 9 and 10.
        removeEntriesAfter(maps, 8);
        maps.index().put("indexed", 8L);
        // An append cut short after its record: the head stayed at 10, the record at 11 and an entry of its call are there.
        maps.chain().put(11L, maps.chain().get(10L));
        maps.index().put("cci_orphan", 11L);

        EmbeddedAuditStore restarted = AuditStores.embedded(dataSource);

        assertThat(maps.chain().get(11L)).isNull();
        assertThat(restarted.holdsCall("ci_orphan")).isFalse();
        assertThat(restarted.holdsCall("ci_9")).isTrue();
        assertThat(restarted.query(query(q -> q.withUser("alice")))).extracting(StoredRecord::seq).containsExactly(
                1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(restarted.append(JdbcAuditStoreTest.execution("ci_orphan"))).isTrue();
        assertThat(restarted.verify().intact()).isTrue();
        assertThat(restarted.verify().checked()).isEqualTo(11);
    }

    @Test
    void shouldMakeAgainAtStartTheEntriesOfTheRecordsAppendedSinceTheIndexLastMarkedItsProgress() {
        DataSource dataSource = AuditStores.h2();
        EmbeddedAuditStore.Maps maps = executionsAppended(dataSource, 300);
        assertThat(maps.index().get("indexed")).as("marked every 256 appends").isEqualTo(256L);
        // A crash lost every entry the index had made since.
        removeEntriesAfter(maps, 256);

        EmbeddedAuditStore restarted = AuditStores.embedded(dataSource);

        assertThat(restarted.holdsCall("ci_299")).isTrue();
        assertThat(restarted.query(query(q -> q.withUser("alice")))).hasSize(300);
        assertThat(maps.index().get("indexed")).isEqualTo(300L);
    }

    @Test
    void shouldHaveEachAppendInTheFileAtOnceWhereH2WritesEachCommitAtOnce(@TempDir Path running, @TempDir Path copy)
            throws Exception {
        DataSource dataSource = AuditStores.h2File(running, ";WRITE_DELAY=0");
        EmbeddedAuditStore store = AuditStores.embedded(dataSource);
        MVStore file = H2Maps.of(dataSource, Function.<MVStore>identity()).orElseThrow().get();
        for (int i = 0; i < 20; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + i));
            assertThat(file.hasUnsavedChanges()).as("unwritten after append %d", i).isFalse();
        }
        byte[] root = store.tree().head("log").root();

        // The file as a crash would leave it now: the gateway still running, nothing closed.
        Files.copy(running.resolve("gateway.mv.db"), copy.resolve("gateway.mv.db"));
        EmbeddedAuditStore reopened = AuditStores.embedded(AuditStores.h2File(copy, ""));

        assertThat(reopened.verify().checked()).isEqualTo(20);
        assertThat(reopened.verify().intact()).isTrue();
        assertThat(reopened.tree().head("log").root()).isEqualTo(root);
        assertThat(reopened.holdsCall("ci_19")).isTrue();
        assertThat(reopened.append(JdbcAuditStoreTest.execution("ci_20"))).isTrue();
        assertThat(reopened.query(query(q -> q.withAfter(19L)))).extracting(StoredRecord::seq).containsExactly(20L, 21L);
    }

    @Test
    void shouldTellAChangedRecordFromTheChain() {
        DataSource dataSource = AuditStores.h2();
        EmbeddedAuditStore store = AuditStores.embedded(dataSource);
        for (int i = 0; i < 5; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + i));
        }
        EmbeddedAuditStore.Maps maps = H2Maps.of(dataSource, EmbeddedAuditStore.Maps::open).orElseThrow().get();
        Object[] fields = PackedFields.unpack((byte[]) maps.chain().get(3L), EmbeddedAuditStore.FIELDS);
        fields[12] = "print('nothing to see')";
        maps.chain().put(3L, PackedFields.pack(fields));

        ChainVerification verification = store.verify();

        assertThat(verification.intact()).isFalse();
        assertThat(verification.toString()).contains("content does not match its hash");
    }

    @Test
    void shouldReadTheRecordsAFileKeptAsArraysOfFieldsAndGoOnPacked() {
        DataSource dataSource = AuditStores.h2();
        EmbeddedAuditStore store = AuditStores.embedded(dataSource);
        for (int i = 0; i < 6; i++) {
            store.append(i % 2 == 0 ? flagged("ci_" + i) : JdbcAuditStoreTest.execution("ci_" + i));
        }
        List<StoredRecord> before = all(store);
        // As an earlier version kept them: each record the array of its fields.
        EmbeddedAuditStore.Maps maps = H2Maps.of(dataSource, EmbeddedAuditStore.Maps::open).orElseThrow().get();
        for (long seq = 1; seq <= 6; seq++) {
            maps.chain().put(seq, PackedFields.unpack((byte[]) maps.chain().get(seq), EmbeddedAuditStore.FIELDS));
        }

        EmbeddedAuditStore restarted = AuditStores.embedded(dataSource);

        assertThat(maps.chain().get(4L)).isInstanceOf(Object[].class);
        assertThat(all(restarted)).isEqualTo(before);
        assertThat(restarted.query(query(q -> q.withFlag("env_access")))).extracting(StoredRecord::seq).containsExactly(1L, 3L, 5L);
        assertThat(restarted.append(JdbcAuditStoreTest.execution("ci_6"))).isTrue();
        assertThat(maps.chain().get(7L)).isInstanceOf(byte[].class);
        assertThat(restarted.verify().intact()).isTrue();
        assertThat(restarted.verify().checked()).isEqualTo(7);
    }

    private static AuditRecord flagged(String callId) {
        AuditRecord plain = JdbcAuditStoreTest.execution(callId);
        return new AuditRecord(plain.recordId(), plain.kind(), callId, plain.requestId(), plain.upstreamRequestId(), plain.user(),
                plain.team(), plain.session(), plain.responseId(), plain.containerId(), plain.model(), plain.status(), plain.code(),
                plain.codeSha256(), plain.outputs(), false, null, plain.createdAt(), List.of("env_access"));
    }

    private static List<StoredRecord> all(AuditStore store) {
        List<StoredRecord> records = new ArrayList<>();
        store.forEach(query(q -> q), records::add);
        return records;
    }

    /** The maps of a store started on {@code dataSource} that then appended {@code count} executions. */
    private static EmbeddedAuditStore.Maps executionsAppended(DataSource dataSource, int count) {
        EmbeddedAuditStore store = AuditStores.embedded(dataSource);
        for (int i = 0; i < count; i++) {
            store.append(JdbcAuditStoreTest.execution("ci_" + i));
        }
        return H2Maps.of(dataSource, EmbeddedAuditStore.Maps::open).orElseThrow().get();
    }

    /** Removes the index's entries of the records after {@code seq}, as a crash that lost them would. */
    private static void removeEntriesAfter(EmbeddedAuditStore.Maps maps, long seq) {
        maps.index().entrySet().stream().filter(entry -> entry.getValue() > seq).map(Map.Entry::getKey).toList()
                .forEach(maps.index()::remove);
    }

    private static AuditQuery query(Function<Query, Query> build) {
        return build.apply(new Query(null, null, null, null, null, null, null, null, null, 1000)).query();
    }

    /** An {@link AuditQuery} built a field at a time. */
    private record Query(String user, String team, String session, String container, Instant since, Instant until, String kind,
                         String flag, Long after, int limit) {

        Query withUser(String value) {
            return new Query(value, team, session, container, since, until, kind, flag, after, limit);
        }

        Query withTeam(String value) {
            return new Query(user, value, session, container, since, until, kind, flag, after, limit);
        }

        Query withSession(String value) {
            return new Query(user, team, value, container, since, until, kind, flag, after, limit);
        }

        Query withContainer(String value) {
            return new Query(user, team, session, value, since, until, kind, flag, after, limit);
        }

        Query withSince(Instant value) {
            return new Query(user, team, session, container, value, until, kind, flag, after, limit);
        }

        Query withUntil(Instant value) {
            return new Query(user, team, session, container, since, value, kind, flag, after, limit);
        }

        Query withKind(String value) {
            return new Query(user, team, session, container, since, until, value, flag, after, limit);
        }

        Query withFlag(String value) {
            return new Query(user, team, session, container, since, until, kind, value, after, limit);
        }

        Query withAfter(Long value) {
            return new Query(user, team, session, container, since, until, kind, flag, value, limit);
        }

        Query withLimit(int value) {
            return new Query(user, team, session, container, since, until, kind, flag, after, value);
        }

        AuditQuery query() {
            return new AuditQuery(user, team, session, container, since, until, kind, flag, after, limit);
        }
    }
}
