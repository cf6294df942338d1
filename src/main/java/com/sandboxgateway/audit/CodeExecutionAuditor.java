package com.sandboxgateway.audit;

import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.budget.SessionFailures;
import com.sandboxgateway.metrics.MeterFamily;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.ItemKind;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.review.CodeFlag;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records every code block and hosted shell call the sandbox executed, from whichever answer shows it
 * first: a created, fetched or cancelled response, any stream event carrying the response, or a stream's
 * {@code response.output_item.done} (of the {@code shell_call_output}, for a shell call); running calls are
 * recorded when an answer shows them finished. The record is durable before the client sees the call (for
 * streams: before the event that completes it is relayed): it is staged in the exchange's settlement, which the
 * chain settles before relaying the answer, in one transaction with the answer's other writes. A call already
 * recorded is not recorded again. Each record carries its review flags ({@link CodeReview}) and, once stored, is
 * counted in {@code gateway.code.executions} (shell calls in {@code gateway.shell.executions}) and
 * {@code gateway.code.flags}.
 */
public final class CodeExecutionAuditor implements ResponseInspector {

    private static final Logger log = LoggerFactory.getLogger(CodeExecutionAuditor.class);
    /** The ids of the calls this exchange audited: a stream shows a call in several events, and it is recorded once. */
    private static final Exchange.Slot<Set<String>> AUDITED_CALLS = Exchange.Slot.withInitial("calls audited", HashSet::new);
    /** A stream's finished {@code shell_call} items by call id, kept until their {@code shell_call_output} arrives. */
    private static final Exchange.Slot<Map<String, OutputItem>> STREAMED_SHELL_CALLS =
            Exchange.Slot.withInitial("streamed shell calls", HashMap::new);

    private final SpoolingAuditLog auditLog;
    private final JdbcAuditStore store;
    private final CodeReview review;
    private final MeterFamily<Counter> codeExecutions;
    private final MeterFamily<Counter> shellExecutions;
    private final MeterFamily<Counter> flags;
    private final JsonMapper json;
    private final Clock clock;
    private final int maxOutputChars;
    private final ShellCallRecords shellCalls;

    CodeExecutionAuditor(SpoolingAuditLog auditLog, JdbcAuditStore store, CodeReview review, MeterRegistry meters, JsonMapper json,
                         Clock clock, int maxOutputChars) {
        this.auditLog = auditLog;
        this.store = store;
        this.review = review;
        this.codeExecutions = MeterFamily.counters(meters, AuditMetrics.CODE_EXECUTIONS, null, "team", "status");
        this.shellExecutions = MeterFamily.counters(meters, AuditMetrics.SHELL_EXECUTIONS, null, "team", "status");
        this.flags = MeterFamily.counters(meters, AuditMetrics.CODE_FLAGS, null, "flag", "team");
        this.json = json;
        this.clock = clock;
        this.maxOutputChars = maxOutputChars;
        this.shellCalls = new ShellCallRecords(json, clock, maxOutputChars);
    }

    @Override
    public void inspect(Exchange exchange, Answer answer) {
        CodeReview.Streak streak = review.streak(exchange);
        answer.response().ifPresent(response -> {
            response.output(ItemKind.CODE_INTERPRETER_CALL).forEach(call -> recordCall(exchange, streak, call));
            ShellCallRecords.inOutput(response.output()).forEach(call -> recordShellCall(exchange, streak, call));
        });
        answer.doneItem().ifPresent(item -> {
            switch (item.kind()) {
                case CODE_INTERPRETER_CALL -> recordCall(exchange, streak, item);
                // A streamed shell call is recorded when its output is done, before that event is relayed.
                case SHELL_CALL -> {
                    if (item.callId() != null) {
                        exchange.get(STREAMED_SHELL_CALLS).put(item.callId(), item);
                    }
                }
                case SHELL_CALL_OUTPUT -> {
                    OutputItem call = exchange.get(STREAMED_SHELL_CALLS).remove(item.callId());
                    if (call != null) {
                        recordShellCall(exchange, streak, new ShellCallRecords.ShellCall(call, item));
                    }
                }
                default -> { }
            }
        });
    }

    private void recordShellCall(Exchange exchange, CodeReview.Streak streak, ShellCallRecords.ShellCall call) {
        String callId = call.id();
        if (!call.finished() || callId == null || !exchange.get(AUDITED_CALLS).add(callId) || recordedBefore(exchange, callId)) {
            return;
        }
        CodeReview.Result reviewed = review.reviewShell(streak, call.commands(), call.outcome());
        String team = exchange.principal().team();
        auditLog.stage(exchange.settlement(), shellCalls.record(exchange, call, reviewed, details(reviewed)), () -> {
            shellExecutions.with(team, call.status()).increment();
            countFlags(reviewed, team);
        });
    }

    private void recordCall(Exchange exchange, CodeReview.Streak streak, OutputItem call) {
        String callId = call.id();
        if (!call.finished() || callId == null || !exchange.get(AUDITED_CALLS).add(callId) || recordedBefore(exchange, callId)) {
            return;
        }
        String code = call.code();
        String status = call.status();
        JsonNode printed = call.json().path("outputs");
        String outputs = printed.isMissingNode() || printed.isNull() ? null : json.writeValueAsString(printed);
        boolean truncated = outputs != null && outputs.length() > maxOutputChars;
        CodeReview.Result reviewed = review.review(streak, call);
        String team = exchange.principal().team();
        auditLog.stage(exchange.settlement(), new AuditRecord(AuditRecord.newId(), AuditRecord.Kind.CODE_EXECUTION,
                callId, exchange.requestId(), exchange.upstreamRequestId(), exchange.principal().user(), team,
                exchange.session(), exchange.responseId(), call.containerId(), exchange.model(),
                status, code, Sha256.hex(code), truncated ? outputs.substring(0, maxOutputChars) : outputs,
                truncated, json.writeValueAsString(details(reviewed, truncated)), clock.instant(), reviewed.names()), () -> {
                    codeExecutions.with(team, status).increment();
                    countFlags(reviewed, team);
                });
    }

    private void countFlags(CodeReview.Result reviewed, String team) {
        reviewed.names().forEach(flag -> flags.with(flag, team).increment());
    }

    /**
     * A call an earlier answer (a stream, an earlier fetch) already recorded is not reviewed again. Only a fetched or
     * cancelled response can show one: the calls of a response being created are new (a stream repeating one is
     * caught by {@link #AUDITED_CALLS}), so creating one reads nothing before its append, whose own duplicate
     * check keeps a call recorded once should a concurrent fetch record it first.
     */
    private boolean recordedBefore(Exchange exchange, String callId) {
        if (exchange.route().route() == Route.RESPONSES_CREATE) {
            return false;
        }
        try {
            return store.holdsCall(callId);
        } catch (DataAccessException | TransactionException e) {
            return false; // the store is down; the record goes to the spool, whose replay stores a call once
        }
    }

    /** Outcome, failure streak and flag details (hosts, paths, files; never the code's strings otherwise). */
    private ObjectNode details(CodeReview.Result reviewed, boolean truncated) {
        ObjectNode details = details(reviewed);
        if (truncated) {
            details.put("outputs_cap_chars", maxOutputChars);
        }
        return details;
    }

    private ObjectNode details(CodeReview.Result reviewed) {
        ObjectNode details = json.createObjectNode();
        details.put("outcome", reviewed.outcome().name().toLowerCase(java.util.Locale.ROOT));
        details.put(SessionFailures.FIELD, reviewed.failuresInARow());
        if (!reviewed.flags().isEmpty()) {
            var flags = details.putArray("flags");
            for (CodeFlag flag : reviewed.flags()) {
                flags.addObject().put("flag", flag.flag()).put("detail", flag.detail());
            }
        }
        return details;
    }
}
