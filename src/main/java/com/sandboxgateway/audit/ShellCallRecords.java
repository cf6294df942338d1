package com.sandboxgateway.audit;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.openai.ItemKind;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.review.CallOutcome;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a hosted shell's {@code shell_call} and its {@code shell_call_output} into the audit record of the
 * call ({@link AuditRecord.Kind#SHELL_EXECUTION}): the commands one per line as its code, the output chunks
 * (stdout, stderr, exit or timeout outcome) as its outputs, capped like code outputs, and the call's limits
 * ({@code timeout_ms}, {@code max_output_length}) and the model's {@code call_id} in its details.
 */
final class ShellCallRecords {

    private final JsonMapper json;
    private final Clock clock;
    private final int maxOutputChars;

    ShellCallRecords(JsonMapper json, Clock clock, int maxOutputChars) {
        this.json = json;
        this.clock = clock;
        this.maxOutputChars = maxOutputChars;
    }

    /**
     * One shell call as an answer shows it.
     *
     * @param output its {@code shell_call_output} item, or {@code null} when the answer holds none (yet)
     */
    record ShellCall(OutputItem call, OutputItem output) {

        /** The {@code shell_call} item's id, which the record is idempotent by. */
        String id() {
            return call.id();
        }

        List<String> commands() {
            List<String> commands = new ArrayList<>();
            call.json().path("action").path("commands").forEach(command -> commands.add(command.asString("")));
            return commands;
        }

        /** The status of the output when there is one, else of the call. */
        String status() {
            String status = (output != null ? output : call).status();
            return status != null ? status : "completed";
        }

        /** Whether the call ran to an end: its output is finished, or the call ended without one. */
        boolean finished() {
            return OpenAiFormat.FINISHED_CALL.contains(status());
        }

        /**
         * How the commands ended, for counting failures in a row: failed when the call did not complete or a
         * command timed out, raised when a command exited non-zero.
         */
        CallOutcome outcome() {
            CallOutcome byStatus = CallOutcome.of(status(), List.of());
            if (byStatus != CallOutcome.SUCCEEDED) {
                return byStatus;
            }
            for (JsonNode chunk : chunks()) {
                JsonNode outcome = chunk.path("outcome");
                if ("timeout".equals(outcome.path("type").asString(null))) {
                    return CallOutcome.FAILED;
                }
                if (outcome.path("exit_code").asInt(0) != 0) {
                    return CallOutcome.RAISED;
                }
            }
            return CallOutcome.SUCCEEDED;
        }

        private Iterable<JsonNode> chunks() {
            return output == null ? List.of() : output.json().path("output");
        }
    }

    /** The shell calls of a response's {@code output}, each with the output item of the same {@code call_id}. */
    static List<ShellCall> inOutput(List<OutputItem> items) {
        Map<String, OutputItem> outputs = new HashMap<>();
        for (OutputItem item : items) {
            if (item.is(ItemKind.SHELL_CALL_OUTPUT)) {
                outputs.put(item.callId(), item);
            }
        }
        List<ShellCall> calls = new ArrayList<>();
        for (OutputItem item : items) {
            if (item.is(ItemKind.SHELL_CALL)) {
                calls.add(new ShellCall(item, outputs.get(item.callId())));
            }
        }
        return calls;
    }

    /** The record of {@code call} as {@code exchange} saw it, with its review's flags and outcome. */
    AuditRecord record(Exchange exchange, ShellCall call, CodeReview.Result reviewed, ObjectNode details) {
        String commands = String.join("\n", call.commands());
        JsonNode chunks = call.output() == null ? null : call.output().json().get("output");
        String outputs = chunks == null || chunks.isNull() ? null : json.writeValueAsString(chunks);
        boolean truncated = outputs != null && outputs.length() > maxOutputChars;
        JsonNode action = call.call().json().path("action");
        details.put("call_id", call.call().callId());
        details.set("timeout_ms", action.path("timeout_ms").isNumber() ? action.get("timeout_ms") : null);
        details.set("max_output_length", action.path("max_output_length").isNumber() ? action.get("max_output_length") : null);
        if (truncated) {
            details.put("outputs_cap_chars", maxOutputChars);
        }
        return new AuditRecord(AuditRecord.newId(), AuditRecord.Kind.SHELL_EXECUTION, call.id(), exchange.requestId(),
                exchange.upstreamRequestId(), exchange.principal().user(), exchange.principal().team(), exchange.session(),
                exchange.responseId(), call.call().containerId(), exchange.model(), call.status(), commands,
                Sha256.hex(commands), truncated ? outputs.substring(0, maxOutputChars) : outputs, truncated,
                json.writeValueAsString(details), clock.instant(), reviewed.names());
    }
}
