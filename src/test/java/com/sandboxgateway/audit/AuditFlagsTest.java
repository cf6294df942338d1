package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import tools.jackson.databind.json.JsonMapper;

/** Review flags on audit records: stored, found with {@code flag=}, hashed, and invisible to records made before them. */
class AuditFlagsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("h2", AuditStores.h2()), Arguments.of("postgres", AuditStores.postgres("audit_flags_test", 5432)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldFindRecordsByExactFlagName(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        String team = "t-" + UUID.randomUUID();
        AuditRecord both = flagged(team, List.of("http_client", "env_access"));
        AuditRecord lookalike = flagged(team, List.of("envxaccess", "env_access_more"));
        AuditRecord none = flagged(team, List.of());
        List.of(both, lookalike, none).forEach(store::append);

        assertThat(recordIds(store, team, "env_access")).containsExactly(both.recordId());
        assertThat(recordIds(store, team, "http_client")).containsExactly(both.recordId());
        assertThat(recordIds(store, team, "access")).isEmpty();
        assertThat(recordIds(store, team, null)).containsExactly(both.recordId(), lookalike.recordId(), none.recordId());
        assertThat(store.query(query(team, "env_access")).getFirst().record().flags()).containsExactly("env_access", "http_client");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldChainFlagsAndDetectAFlagRemovedBehindItsBack(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        String team = "t-" + UUID.randomUUID();
        AuditRecord record = flagged(team, List.of("env_access"));
        store.append(flagged(team, List.of()));
        store.append(record);
        assertThat(store.verify().intact()).isTrue();

        JdbcClient.create(dataSource).sql("UPDATE audit_record SET flags = NULL WHERE record_id = :id").param("id", record.recordId()).update();

        ChainVerification verification = store.verify();
        assertThat(verification.intact()).isFalse();
        assertThat(verification.problem()).contains("content");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void shouldDropTheFlagsOfRecordsRetentionDeletes(String name, DataSource dataSource) {
        JdbcAuditStore store = AuditStores.store(dataSource);
        String team = "t-" + UUID.randomUUID();
        store.append(flagged(team, List.of("env_access")));

        store.deleteOlderThan(Instant.now().plusSeconds(60));

        assertThat(recordIds(store, team, "env_access")).isEmpty();
        assertThat(JdbcClient.create(dataSource).sql("SELECT COUNT(*) FROM audit_flag WHERE seq NOT IN (SELECT seq FROM audit_record)")
                .query(Long.class).single()).isZero();
        assertThat(store.verify().intact()).isTrue();
    }

    @Test
    void shouldHashARecordWithoutFlagsExactlyAsBeforeFlagsExisted() {
        AuditRecord unflagged = flagged("analytics", List.of());

        String canonical = canonical(unflagged);

        assertThat(canonical).doesNotContain("flags").endsWith("\"created_at\":\"" + unflagged.createdAt() + "\"}");
        assertThat(canonical(flagged("analytics", List.of("env_access")))).endsWith("\"flags\":[\"env_access\"]}");
    }

    @Test
    void shouldKeepFlagsThroughTheSpoolForm() {
        AuditRecord record = flagged("analytics", List.of("runaway_session", "env_access"));
        AuditRecordJson form = new AuditRecordJson(JSON);

        assertThat(AuditRecordJson.read(form.parse(form.toString(form.write(record))))).isEqualTo(record);
        assertThat(record.flags()).containsExactly("env_access", "runaway_session");
    }

    private static AuditRecord flagged(String team, List<String> flags) {
        return new AuditRecord(UUID.randomUUID().toString(), AuditRecord.Kind.CODE_EXECUTION, "ci_" + UUID.randomUUID(), "gwreq_1",
                null, "alice", team, "s-1", "resp_1", "cntr_1", "gpt-4.1", "completed", "import os\nos.environ", "abc", null, false,
                "{\"outcome\":\"succeeded\"}", Instant.now(), flags);
    }

    private static List<String> recordIds(JdbcAuditStore store, String team, String flag) {
        return store.query(query(team, flag)).stream().map(stored -> stored.record().recordId()).toList();
    }

    private static AuditQuery query(String team, String flag) {
        return new AuditQuery(null, team, null, null, null, null, null, flag, null, 100);
    }

    private static String canonical(AuditRecord record) {
        return new String(new AuditChain(JSON).canonical(7, record), StandardCharsets.UTF_8);
    }
}
