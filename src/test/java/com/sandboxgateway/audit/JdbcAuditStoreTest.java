package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.store.SqlDialect;

/** The chain's guarantees, on H2 (in and outside its PostgreSQL mode) and on PostgreSQL alike. */
class JdbcAuditStoreTest {

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("h2", AuditStores.h2()), Arguments.of("h2 without PostgreSQL mode", AuditStores.plainH2()),
                Arguments.of("postgres", AuditStores.postgres("audit_store_test", 5432)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldFormOneLinearChainUnderConcurrentWriters(String name, DataSource dataSource) throws Exception {
        JdbcAuditStore store = AuditStores.store(dataSource);
        long before = count(dataSource);
        try (ExecutorService writers = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 1000; i++) {
                        store.append(execution("call-" + writer + "-" + i + "-" + UUID.randomUUID()));
                    }
                }));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
        }

        assertThat(count(dataSource) - before).isEqualTo(8000);
        ChainVerification verification = store.verify();
        assertThat(verification.intact()).as(verification.toString()).isTrue();
        assertThat(verification.checked()).isEqualTo(before + 8000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldStoreEachCallOnceWhenManyWritersOfTwoReplicasSeeItAtOnce(String name, DataSource dataSource) throws Exception {
        JdbcAuditStore[] replicas = {AuditStores.store(dataSource), AuditStores.store(dataSource)};
        long before = count(dataSource);
        List<String> calls = IntStream.range(0, 50).mapToObj(i -> "ci_" + UUID.randomUUID()).toList();
        AtomicInteger stored = new AtomicInteger();
        try (ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 16; w++) {
                JdbcAuditStore store = replicas[w % 2];
                List<String> order = new ArrayList<>(calls);
                Collections.shuffle(order);
                done.add(writers.submit(() -> order.forEach(call -> {
                    if (store.append(execution(call))) {
                        stored.incrementAndGet();
                    }
                })));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
        }

        assertThat(stored.get()).isEqualTo(50);
        assertThat(count(dataSource) - before).isEqualTo(50);
        assertThat(replicas[0].verify().intact()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldExtendTheChainWhereAnotherReplicaLeftIt(String name, DataSource dataSource) {
        JdbcAuditStore first = AuditStores.store(dataSource);
        JdbcAuditStore second = AuditStores.store(dataSource);
        long before = count(dataSource);

        // Replicas taking turns: each one's transaction starts from the end it committed last, which the other moved on.
        for (int turn = 0; turn < 4; turn++) {
            assertThat((turn % 2 == 0 ? first : second).append(execution("ci_" + UUID.randomUUID()))).isTrue();
        }

        assertThat(count(dataSource) - before).isEqualTo(4);
        ChainVerification verification = second.verify();
        assertThat(verification.intact()).as(verification.toString()).isTrue();
        assertThat(verification.checked()).isEqualTo(before + 4);
    }

    /**
     * On PostgreSQL a transaction that found the chain moved by another replica is made again, and the next ones lock
     * the head before they append instead of going by the end their store committed, which would mostly have moved
     * again: one rollback where replicas take turns, not one per turn.
     */
    @Test
    void shouldLockTheHeadFirstForAWhileOnceAnotherReplicaMovedTheChain() {
        DataSource postgres = AuditStores.postgres("audit_lock_first_test", 5432);
        AtomicInteger rollbacks = new AtomicInteger();
        JdbcAuditStore first = AuditStores.store(countingRollbacks(postgres, rollbacks));
        JdbcAuditStore second = AuditStores.store(postgres);
        assertThat(first.append(execution("ci_" + UUID.randomUUID()))).isTrue();

        for (int turn = 0; turn < 20; turn++) {
            assertThat(second.append(execution("ci_" + UUID.randomUUID()))).isTrue();
            assertThat(first.append(execution("ci_" + UUID.randomUUID()))).isTrue();
        }

        assertThat(rollbacks).hasValue(1);
        assertThat(count(postgres)).isEqualTo(41);
        ChainVerification verification = first.verify();
        assertThat(verification.intact()).as(verification.toString()).isTrue();
    }

    /** The data source, its connections counting the transactions rolled back through them. */
    private static DataSource countingRollbacks(DataSource dataSource, AtomicInteger rollbacks) {
        return proxy(DataSource.class, dataSource, (method, result) -> result instanceof Connection connection
                ? proxy(Connection.class, connection, (call, unchanged) -> {
                    if (call.getName().equals("rollback") && call.getParameterCount() == 0) {
                        rollbacks.incrementAndGet();
                    }
                    return unchanged;
                })
                : result);
    }

    /** {@code target} behind {@code type}, each call's result passed through {@code after}. */
    private static <T> T proxy(Class<T> type, T target, BiFunction<Method, Object, Object> after) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            try {
                return after.apply(method, method.invoke(target, args));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }

    /**
     * On PostgreSQL a transaction that goes by the end its store committed leaves its records to the head's move, and
     * inserts them sooner once they would pass the parameters one statement takes; on H2 it inserts them at once. Here
     * first from an end another replica moved on (so the group is made again from the head), then from the end it
     * committed itself.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldAppendMoreRecordsInOneTransactionThanOneStatementTakes(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        JdbcAuditStore other = AuditStores.store(dataSource);
        assertThat(store.append(execution("ci_" + UUID.randomUUID()))).isTrue();
        assertThat(other.append(execution("ci_" + UUID.randomUUID()))).isTrue();
        JdbcClient jdbc = JdbcClient.create(dataSource);
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        GroupCommit commits = new GroupCommit(transactions, new JdbcTemplate(dataSource), SqlDialect.of(dataSource));

        for (int group = 0; group < 2; group++) {
            List<GroupCommit.Write> writes = IntStream.range(0, 1_500).mapToObj(i -> flagged("ci_" + UUID.randomUUID()))
                    .<GroupCommit.Write>map(record -> () -> store.appendInTransaction(record)).toList();
            assertThat(commits.commit(writes)).hasSize(1_500).containsOnly(true);
        }

        assertThat(count(dataSource)).isEqualTo(3_002);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM audit_flag").query(Long.class).single()).isEqualTo(3_000);
        ChainVerification verification = other.verify();
        assertThat(verification.intact()).as(verification.toString()).isTrue();
        assertThat(new JdbcAuditTree(jdbc).head("test").root()).isEqualTo(MerkleRoots.of(store, 3_002));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldStoreACallOnceHoweverOftenItIsSeen(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        String call = "ci_" + UUID.randomUUID();

        assertThat(store.append(execution(call))).isTrue();
        assertThat(store.append(execution(call))).isFalse();
        assertThat(store.query(new AuditQuery(null, null, null, null, null, null, null, null, null, 10_000)))
                .filteredOn(stored -> call.equals(stored.record().callId())).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldNameTheFirstRecordChangedBehindItsBack(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        List<Long> seqs = appendFive(store, dataSource);

        JdbcClient.create(dataSource).sql("UPDATE audit_record SET code = 'print(\"nothing to see\")' WHERE seq = :seq")
                .param("seq", seqs.get(2)).update();

        ChainVerification verification = store.verify();
        assertThat(verification.intact()).isFalse();
        assertThat(verification.firstBrokenSeq()).isEqualTo(seqs.get(2));
        assertThat(verification.problem()).contains("content");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldNameTheGapWhereARecordWasDeleted(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        List<Long> seqs = appendFive(store, dataSource);

        JdbcClient.create(dataSource).sql("DELETE FROM audit_record WHERE seq = :seq").param("seq", seqs.get(1)).update();

        ChainVerification verification = store.verify();
        assertThat(verification.intact()).isFalse();
        assertThat(verification.firstBrokenSeq()).isEqualTo(seqs.get(1));
        assertThat(verification.problem()).contains("missing");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldStayVerifiableAfterRetentionDeletesTheOldest(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        Instant old = Instant.parse("2020-01-01T00:00:00Z");
        for (int i = 0; i < 3; i++) {
            store.append(new AuditRecord(UUID.randomUUID().toString(), AuditRecord.Kind.CODE_EXECUTION, "old-" + UUID.randomUUID(),
                    null, null, "alice", "analytics", null, null, null, null, "completed", "x", null, null, false, null, old));
        }
        appendFive(store, dataSource);

        assertThat(store.deleteOlderThan(Instant.parse("2021-01-01T00:00:00Z"))).isGreaterThanOrEqualTo(3);

        assertThat(store.verify().intact()).isTrue();
        assertThat(store.query(new AuditQuery(null, null, null, null, null, Instant.parse("2021-01-01T00:00:00Z"), null, null, null, 10)))
                .isEmpty();
    }

    private static List<Long> appendFive(JdbcAuditStore store, DataSource dataSource) {
        List<Long> seqs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String call = "ci_" + UUID.randomUUID();
            store.append(execution(call));
            seqs.add(JdbcClient.create(dataSource).sql("SELECT seq FROM audit_record WHERE call_id = :call")
                    .param("call", call).query(Long.class).single());
        }
        return seqs;
    }

    static AuditRecord execution(String callId) {
        return new AuditRecord(UUID.randomUUID().toString(), AuditRecord.Kind.CODE_EXECUTION, callId, "gwreq_1", "req_1",
                "alice", "analytics", "s-1", "resp_1", "cntr_1", "gpt-4.1", "completed", "print('hi')\n", "abc",
                "[{\"type\":\"logs\",\"logs\":\"hi\\n\"}]", false, null, Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    private static AuditRecord flagged(String callId) {
        AuditRecord plain = execution(callId);
        return new AuditRecord(plain.recordId(), plain.kind(), callId, plain.requestId(), plain.upstreamRequestId(), plain.user(),
                plain.team(), plain.session(), plain.responseId(), plain.containerId(), plain.model(), plain.status(), plain.code(),
                plain.codeSha256(), plain.outputs(), false, null, plain.createdAt(), List.of("env_access"));
    }

    private static long count(DataSource dataSource) {
        return JdbcClient.create(dataSource).sql("SELECT COUNT(*) FROM audit_record").query(Long.class).single();
    }
}
