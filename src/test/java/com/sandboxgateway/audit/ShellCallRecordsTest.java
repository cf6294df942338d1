package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.review.CallOutcome;
import com.sandboxgateway.review.CodeFlag;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ShellCallRecordsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private final ShellCallRecords records = new ShellCallRecords(JSON, Clock.fixed(NOW, ZoneOffset.UTC), 80);

    private static OutputItem call(String id, String callId, String status) {
        return OutputItem.of(JSON.valueToTree(Map.of("type", "shell_call", "id", id, "call_id", callId, "status", status,
                "action", Map.of("commands", List.of("ls /mnt/data", "wc -l /mnt/data/a.csv"), "timeout_ms", 5000),
                "environment", Map.of("type", "container_reference", "container_id", "cntr_1"))));
    }

    private static OutputItem output(String callId, Map<String, Object> outcome) {
        return OutputItem.of(JSON.valueToTree(Map.of("type", "shell_call_output", "id", "sho_" + callId, "call_id", callId, "status", "completed",
                "output", List.of(Map.of("stdout", "a.csv\n", "stderr", "", "outcome", Map.of("type", "exit", "exit_code", 0)),
                        Map.of("stdout", "3 /mnt/data/a.csv\n", "stderr", "", "outcome", outcome)))));
    }

    @Test
    void shouldPairEachShellCallWithTheOutputOfItsCallId() {
        List<OutputItem> items = List.of(call("sh_1", "call_1", "completed"), call("sh_2", "call_2", "in_progress"),
                output("call_1", Map.of("type", "exit", "exit_code", 0)), OutputItem.of(JSON.valueToTree(Map.of("type", "message"))));

        List<ShellCallRecords.ShellCall> calls = ShellCallRecords.inOutput(items);

        assertThat(calls).extracting(ShellCallRecords.ShellCall::id).containsExactly("sh_1", "sh_2");
        assertThat(calls.get(0).output().id()).isEqualTo("sho_call_1");
        assertThat(calls.get(1).output()).isNull();
        assertThat(calls.get(1).finished()).as("running, and no output yet").isFalse();
        assertThat(calls.get(0).commands()).containsExactly("ls /mnt/data", "wc -l /mnt/data/a.csv");
        assertThat(calls.get(0).call().containerId()).isEqualTo("cntr_1");
    }

    @Test
    void shouldTellSucceededRaisedAndTimedOutCalls() {
        assertThat(shell(Map.of("type", "exit", "exit_code", 0)).outcome()).isEqualTo(CallOutcome.SUCCEEDED);
        assertThat(shell(Map.of("type", "exit", "exit_code", 2)).outcome()).isEqualTo(CallOutcome.RAISED);
        assertThat(shell(Map.of("type", "timeout")).outcome()).isEqualTo(CallOutcome.FAILED);
        assertThat(new ShellCallRecords.ShellCall(call("sh_1", "call_1", "incomplete"), null).outcome()).isEqualTo(CallOutcome.FAILED);
    }

    @Test
    void shouldRecordTheCommandsAsCodeAndCapTheOutputs() {
        Exchange exchange = new Exchange("gwreq_1", new Principal("alice", "analytics", Set.of("user")),
                new RouteMatch(Route.RESPONSES_CREATE, Map.of()), "/v1/responses", null, "sess_1", null, null);
        CodeReview.Result reviewed = new CodeReview.Result(List.of(new CodeFlag("env_access", null)), CallOutcome.SUCCEEDED, 0);

        AuditRecord record = records.record(exchange, shell(Map.of("type", "timeout")), reviewed, JSON.createObjectNode());

        assertThat(record.kind()).isEqualTo(AuditRecord.Kind.SHELL_EXECUTION);
        assertThat(record.callId()).isEqualTo("sh_1");
        assertThat(record.code()).isEqualTo("ls /mnt/data\nwc -l /mnt/data/a.csv");
        assertThat(record.codeSha256()).isEqualTo(Sha256.hex(record.code()));
        assertThat(record).extracting(AuditRecord::user, AuditRecord::team, AuditRecord::session, AuditRecord::containerId,
                AuditRecord::status, AuditRecord::createdAt).containsExactly("alice", "analytics", "sess_1", "cntr_1", "completed", NOW);
        assertThat(record.outputs()).hasSize(80).startsWith("[{");
        assertThat(record.outputsTruncated()).isTrue();
        JsonNode details = JSON.readTree(record.details());
        assertThat(details.path("call_id").asString()).isEqualTo("call_1");
        assertThat(details.path("timeout_ms").asInt()).isEqualTo(5000);
        assertThat(details.path("max_output_length").isNull()).isTrue();
        assertThat(details.path("outputs_cap_chars").asInt()).isEqualTo(80);
        assertThat(record.flags()).containsExactly("env_access");
    }

    private static ShellCallRecords.ShellCall shell(Map<String, Object> outcome) {
        return new ShellCallRecords.ShellCall(call("sh_1", "call_1", "completed"), output("call_1", outcome));
    }
}
