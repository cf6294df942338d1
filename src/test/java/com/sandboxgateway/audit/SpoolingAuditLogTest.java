package com.sandboxgateway.audit;

import static com.sandboxgateway.policy.OnRoutes.always;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.Settlement;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.TcpProxy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit trail survives the database going away (PostgreSQL cut off through a TCP proxy) and an answer whose
 * transaction fails.
 */
class SpoolingAuditLogTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void shouldKeepEveryRecordExactlyOnceThroughADatabaseOutage(@TempDir Path spoolDir) throws Exception {
        try (TcpProxy proxy = new TcpProxy(5432)) {
            DataSource dataSource = AuditStores.postgres("audit_outage_test", proxy.port());
            JdbcAuditStore store = AuditStores.store(dataSource);
            SpoolingAuditLog auditLog = new SpoolingAuditLog(store, new AuditSpool(spoolDir, json),
                    new SimpleMeterRegistry());
            String run = UUID.randomUUID().toString();

            for (int i = 0; i < 1000; i++) {
                if (i == 300) {
                    proxy.cut();
                }
                if (i == 700) {
                    proxy.start();
                }
                auditLog.record(JdbcAuditStoreTest.execution(run + "-" + i));
            }
            assertThat(auditLog.spoolDepth()).isPositive();
            for (int i = 0; i < 100 && auditLog.spoolDepth() > 0; i++) {
                auditLog.replay();
            }

            assertThat(auditLog.spoolDepth()).isZero();
            assertThat(JdbcClient.create(dataSource).sql("SELECT COUNT(DISTINCT call_id) FROM audit_record WHERE call_id LIKE :run")
                    .param("run", run + "-%").query(Long.class).single()).isEqualTo(1000);
            assertThat(JdbcClient.create(dataSource).sql("SELECT COUNT(*) FROM audit_record").query(Long.class).single()).isEqualTo(1000);
            assertThat(store.verify().intact()).isTrue();
        }
    }

    @Test
    void shouldReplayWhatASpoolHeldWhenTheGatewayStartsAgain(@TempDir Path spoolDir) throws Exception {
        try (TcpProxy proxy = new TcpProxy(5432)) {
            DataSource dataSource = AuditStores.postgres("audit_restart_test", proxy.port());
            proxy.cut();
            SpoolingAuditLog beforeCrash = new SpoolingAuditLog(AuditStores.store(dataSource), new AuditSpool(spoolDir, json),
                    new SimpleMeterRegistry());
            for (int i = 0; i < 10; i++) {
                beforeCrash.record(JdbcAuditStoreTest.execution("restart-" + i));
            }
            proxy.start();

            SpoolingAuditLog afterRestart = new SpoolingAuditLog(AuditStores.store(dataSource), new AuditSpool(spoolDir, json),
                    new SimpleMeterRegistry());
            assertThat(afterRestart.spoolDepth()).isEqualTo(10);
            afterRestart.replay();

            assertThat(afterRestart.spoolDepth()).isZero();
            assertThat(JdbcClient.create(dataSource).sql("SELECT call_id FROM audit_record ORDER BY seq").query(String.class).list())
                    .containsExactly("restart-0", "restart-1", "restart-2", "restart-3", "restart-4", "restart-5", "restart-6",
                            "restart-7", "restart-8", "restart-9");
        }
    }

    @Test
    void shouldSpoolAStagedRecordWhenAnotherWriteOfItsAnswerFailsTheirTransaction(@TempDir Path spoolDir) throws Exception {
        DataSource dataSource = AuditStores.postgres("audit_settlement_test", 5432);
        JdbcAuditStore store = AuditStores.store(dataSource);
        SpoolingAuditLog auditLog = new SpoolingAuditLog(store, new AuditSpool(spoolDir, json), new SimpleMeterRegistry());
        AtomicBoolean counted = new AtomicBoolean();
        String call = "settled-" + UUID.randomUUID();
        PolicyChain chain = new PolicyChain(List.of(), List.of(always((exchange, answer) -> {
            auditLog.stage(exchange.settlement(), JdbcAuditStoreTest.execution(call), () -> counted.set(true));
            exchange.settlement().write(new Settlement.Write() {
                @Override
                public boolean write() {
                    throw new DataAccessResourceFailureException("the owner rows could not be inserted");
                }

                @Override
                public void failed(RuntimeException cause) {
                }

                @Override
                public Settlement.Timing timing() {
                    return Settlement.Timing.AFTER_RELAY;
                }
            });
        })), List.of(), ChainObserver.NONE, new GroupCommit(new TransactionTemplate(new DataSourceTransactionManager(dataSource))));

        chain.answered(Exchanges.on(Route.RESPONSES_CREATE), Answer.ofJson(Exchanges.tree("{\"id\":\"resp_1\"}"), true));

        JdbcClient jdbc = JdbcClient.create(dataSource);
        String stored = "SELECT COUNT(*) FROM audit_record WHERE call_id = :call";
        assertThat(jdbc.sql(stored).param("call", call).query(Long.class).single()).as("rolled back with the answer's other write")
                .isZero();
        assertThat(auditLog.spoolDepth()).as("durable in the spool instead").isEqualTo(1);
        assertThat(counted).isTrue();
        auditLog.replay();
        assertThat(jdbc.sql(stored).param("call", call).query(Long.class).single()).isEqualTo(1);
        assertThat(store.verify().intact()).isTrue();
    }

    @Test
    void shouldFailClosedWhenNeitherDatabaseNorSpoolCanBeWritten(@TempDir Path dir) throws Exception {
        try (TcpProxy proxy = new TcpProxy(5432)) {
            DataSource dataSource = AuditStores.postgres("audit_closed_test", proxy.port());
            Path spoolDir = Files.createDirectories(dir.resolve("spool"));
            SpoolingAuditLog auditLog = new SpoolingAuditLog(AuditStores.store(dataSource), new AuditSpool(spoolDir, json),
                    new SimpleMeterRegistry());
            proxy.cut();
            Files.delete(spoolDir);
            Files.writeString(spoolDir, "a file where the spool directory should be");

            assertThatThrownBy(() -> auditLog.record(JdbcAuditStoreTest.execution("lost")))
                    .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE));
        }
    }
}
