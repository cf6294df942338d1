package com.sandboxgateway.audit;

import static com.sandboxgateway.policy.OnRoutes.always;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.budget.SessionFailures;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.review.CodeRiskAnalyzer;
import com.sandboxgateway.review.CodeRules;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.MovableClock;
import com.sandboxgateway.support.Policies;
import com.sandboxgateway.upstream.SseEvent;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link CodeExecutionAuditor} on its own (no Spring): a finished call is staged in the exchange's settlement with
 * its review flags and stored when it settles; a call an answer shows again is recorded once.
 */
class CodeExecutionAuditorTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ENV_READING_CODE = "import os\\nprint(os.environ)";

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private DataSource dataSource;
    private CodeExecutionAuditor auditor;
    /** Settles what the exchange staged, showing the answer to no inspector of its own. */
    private PolicyChain settling;

    @BeforeEach
    void setUp(@TempDir Path spoolDir) throws Exception {
        dataSource = AuditStores.h2();
        JdbcAuditStore store = AuditStores.store(dataSource);
        SpoolingAuditLog auditLog = new SpoolingAuditLog(store, new AuditSpool(spoolDir, JSON), meters);
        CodeReview review = new CodeReview(CodeRiskAnalyzer.fromRules(CodeRules.standard()), new TeamPolicies(Policies.of()),
                new SessionFailures(store::latestCodeDetails, JSON), 3);
        auditor = new CodeExecutionAuditor(auditLog, store, review, meters, JSON,
                new MovableClock(Instant.parse("2026-12-01T12:00:00Z")), 1000);
        GroupCommit commits = new GroupCommit(new TransactionTemplate(new DataSourceTransactionManager(dataSource)));
        settling = new PolicyChain(List.of(), List.of(), List.of(), ChainObserver.NONE, commits);
    }

    @Test
    void shouldStageAFinishedCallWithItsReviewFlagsAndStoreItWhenTheAnswerSettles() {
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);
        Answer answer = Answer.ofJson(Exchanges.tree(response("resp_1", call("ci_done", "completed"), call("ci_running", "in_progress"))), true);

        auditor.inspect(exchange, answer);
        assertThat(storedCalls()).as("staged, not written, until the answer settles").isEmpty();
        settling.answered(exchange, answer);

        assertThat(storedCalls()).as("the running call waits for an answer showing it finished").containsExactly("ci_done");
        assertThat(jdbc().sql("SELECT details FROM audit_record WHERE call_id = 'ci_done'").query(String.class).single())
                .contains("\"flag\":\"env_access\"");
        assertThat(meters.counter(AuditMetrics.CODE_EXECUTIONS, "team", "analytics", "status", "completed").count()).isEqualTo(1);
        assertThat(meters.counter(AuditMetrics.CODE_FLAGS, "flag", "env_access", "team", "analytics").count()).isEqualTo(1);
    }

    @Test
    void shouldRecordACallOnceThoughAStreamAndALaterFetchShowItAgain() {
        PolicyChain chain = new PolicyChain(List.of(), List.of(always(auditor)), List.of(), ChainObserver.NONE,
                new GroupCommit(new TransactionTemplate(new DataSourceTransactionManager(dataSource))));
        Exchange stream = Exchanges.on(Route.RESPONSES_CREATE);
        chain.answered(stream, event("response.output_item.done",
                "{\"type\":\"response.output_item.done\",\"sequence_number\":7,\"item\":" + call("ci_twice", "completed") + "}"));
        chain.answered(stream, event("response.completed",
                "{\"type\":\"response.completed\",\"sequence_number\":8,\"response\":" + response("resp_2", call("ci_twice", "completed")) + "}"));
        chain.answered(Exchanges.on(Route.RESPONSE_GET),
                Answer.ofJson(Exchanges.tree(response("resp_2", call("ci_twice", "completed"))), true));

        assertThat(storedCalls()).containsExactly("ci_twice");
        assertThat(meters.counter(AuditMetrics.CODE_EXECUTIONS, "team", "analytics", "status", "completed").count()).isEqualTo(1);
    }

    private List<String> storedCalls() {
        return jdbc().sql("SELECT call_id FROM audit_record ORDER BY seq").query(String.class).list();
    }

    private JdbcClient jdbc() {
        return JdbcClient.create(dataSource);
    }

    private static Answer event(String type, String data) {
        return Answer.ofEvent(new SseEvent(("event: " + type + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8), type, data, true),
                Exchanges.tree(data));
    }

    private static String response(String id, String... output) {
        return "{\"id\":\"" + id + "\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"gpt-4.1\",\"output\":["
                + String.join(",", output) + "]}";
    }

    private static String call(String id, String status) {
        return "{\"type\":\"code_interpreter_call\",\"id\":\"" + id + "\",\"status\":\"" + status + "\",\"container_id\":\"cntr_1\","
                + "\"code\":\"" + ENV_READING_CODE + "\",\"outputs\":[{\"type\":\"logs\",\"logs\":\"{}\"}]}";
    }
}
