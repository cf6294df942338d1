package com.sandboxgateway.audit;

import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.budget.SessionFailures;
import com.sandboxgateway.metrics.MeterFamily;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.ItemKind;
import com.sandboxgateway.openai.OpenAiFormat;
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
 *
 * <p>A stream that ends before it shows how a call it showed with its whole code (or commands) ended (the upstream
 * broke off or went silent, or the client went away and the call was cancelled) may have run it all the same: the call
 * is recorded as the exchange ends, as far as the stream showed it (its last status, no outputs, and
 * {@code "end_unseen"} in its details), so no code the sandbox may have run is missing from the audit.
 *
 * <p>A request offering code execution whose call reached OpenAI but got no answer naming its response (the upstream
 * went silent or broke off before one did) may have run code nobody here can see or fetch: it leaves an
 * {@link AuditRecord.Kind#UNSEEN_RESPONSE} record (counted in {@code gateway.code.unseen_responses}), so the audit
 * shows the gap.
 */
public final class CodeExecutionAuditor implements ResponseInspector {

    private static final Logger log = LoggerFactory.getLogger(CodeExecutionAuditor.class);
    /** The ids of the calls this exchange audited: a stream shows a call in several events, and it is recorded once. */
    private static final Exchange.Slot<Set<String>> AUDITED_CALLS = Exchange.Slot.withInitial("calls audited", HashSet::new);
    /** A stream's finished {@code shell_call} items by call id, kept until their {@code shell_call_output} arrives. */
    private static final Exchange.Slot<Map<String, OutputItem>> STREAMED_SHELL_CALLS =
            Exchange.Slot.withInitial("streamed shell calls", HashMap::new);
    /** A stream's code-interpreter calls by id, as far as its events showed them (the item added, its code, its status). */
    private static final Exchange.Slot<Map<String, ObjectNode>> STREAMED_CALLS =
            Exchange.Slot.withInitial("streamed code calls", LinkedHashMap::new);
    /** What the details of a record say when the stream ended before it showed how the call ended. */
    private static final String END_UNSEEN = "the stream ended before it showed how the call ended";
    /** What the details of an {@link AuditRecord.Kind#UNSEEN_RESPONSE} record say. */
    private static final String UNSEEN =
            "OpenAI may have run code for this request: no answer named its response, so what it ran is not in this log";

    private final SpoolingAuditLog auditLog;
    private final AuditStore store;
    private final CodeReview review;
    private final MeterFamily<Counter> codeExecutions;
    private final MeterFamily<Counter> shellExecutions;
    private final MeterFamily<Counter> flags;
    private final MeterFamily<Counter> unseenResponses;
    private final JsonMapper json;
    private final Clock clock;
    private final int maxOutputChars;
    private final ShellCallRecords shellCalls;

    CodeExecutionAuditor(SpoolingAuditLog auditLog, AuditStore store, CodeReview review, MeterRegistry meters, JsonMapper json,
                         Clock clock, int maxOutputChars) {
        this.auditLog = auditLog;
        this.store = store;
        this.review = review;
        this.codeExecutions = MeterFamily.counters(meters, AuditMetrics.CODE_EXECUTIONS, null, "team", "status");
        this.shellExecutions = MeterFamily.counters(meters, AuditMetrics.SHELL_EXECUTIONS, null, "team", "status");
        this.flags = MeterFamily.counters(meters, AuditMetrics.CODE_FLAGS, null, "flag", "team");
        this.unseenResponses = MeterFamily.counters(meters, AuditMetrics.UNSEEN_RESPONSES, null, "team");
        this.json = json;
        this.clock = clock;
        this.maxOutputChars = maxOutputChars;
        this.shellCalls = new ShellCallRecords(json, clock, maxOutputChars);
    }

    @Override
    public void inspect(Exchange exchange, Answer answer) {
        if (answer.isEvent()) {
            follow(exchange, answer);
        }
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

    /** Keeps what a stream's events show of its code-interpreter calls, for {@link #onFinish}. */
    private static void follow(Exchange exchange, Answer answer) {
        if (answer.type() == null || answer.json() == null) {
            return;
        }
        switch (answer.type()) {
            case OpenAiFormat.OUTPUT_ITEM_ADDED -> {
                if (answer.item().orElse(null) instanceof OutputItem item && item.is(ItemKind.CODE_INTERPRETER_CALL)
                        && item.id() != null && item.json() instanceof ObjectNode added) {
                    exchange.get(STREAMED_CALLS).put(item.id(), added.deepCopy());
                }
            }
            case OpenAiFormat.CODE_DONE -> streamedCall(exchange, answer)
                    .ifPresent(call -> call.put("code", answer.json().path("code").asString("")));
            case OpenAiFormat.CODE_INTERPRETING -> streamedCall(exchange, answer).ifPresent(call -> call.put("status", "interpreting"));
            default -> { }
        }
    }

    private static Optional<ObjectNode> streamedCall(Exchange exchange, Answer answer) {
        return Optional.ofNullable(exchange.get(STREAMED_CALLS).get(answer.json().path("item_id").asString("")));
    }

    /**
     * Records the calls a stream showed whole but never showed ended: code-interpreter calls with their code, shell
     * calls without their output.
     */
    @Override
    public void onFinish(Exchange exchange, ErrorCode failure) {
        if (unseen(exchange)) {
            recordUnseen(exchange, failure);
        }
        Map<String, ObjectNode> calls = exchange.take(STREAMED_CALLS);
        Map<String, OutputItem> shellCallsLeft = exchange.take(STREAMED_SHELL_CALLS);
        if (calls == null && shellCallsLeft == null) {
            return;
        }
        CodeReview.Streak streak = review.streak(exchange);
        if (calls != null) {
            calls.values().stream().map(OutputItem::of).filter(call -> call.code() != null && !call.code().isBlank())
                    .forEach(call -> audit(exchange, streak, call, END_UNSEEN));
        }
        if (shellCallsLeft != null) {
            // Its item is done, its output never came: it was running, as far as anyone here knows.
            shellCallsLeft.values().stream().filter(call -> call.json() instanceof ObjectNode)
                    .map(call -> OutputItem.of(((ObjectNode) call.json()).deepCopy().put("status", "in_progress")))
                    .forEach(call -> auditShellCall(exchange, streak, new ShellCallRecords.ShellCall(call, null), END_UNSEEN));
        }
    }

    /**
     * Whether the exchange created a response that may have run code nobody here saw: the request offered code
     * execution, it may have reached OpenAI, and no answer named its response (the upstream went silent or broke off
     * first, or the answer was not one).
     */
    private static boolean unseen(Exchange exchange) {
        return exchange.route().route() == Route.RESPONSES_CREATE && exchange.responseId() == null
                && exchange.upstreamMayHaveActed() && exchange.json() != null
                && OpenAiFormat.offersCodeExecution(exchange.json().path("tools"));
    }

    /**
     * Records that a response was created whose calls nobody here can see: OpenAI knows its id, the gateway does not,
     * so it cannot fetch the response later either. The record names the request (user, session, model, the container
     * it named, the tools it offered) and why no answer came, so the audit shows the gap instead of nothing.
     */
    private void recordUnseen(Exchange exchange, ErrorCode failure) {
        ObjectNode request = exchange.json();
        JsonNode tools = request.path("tools");
        ObjectNode details = json.createObjectNode();
        details.put("unseen", UNSEEN);
        OpenAiFormat.codeExecutionTools(tools).forEach(details.putArray("tools")::add);
        details.put("stream", request.path("stream").asBoolean(false));
        if (exchange.upstreamStatus() != null) {
            details.put("upstream_status", exchange.upstreamStatus());
        }
        String team = exchange.principal().team();
        auditLog.stage(exchange.settlement(), new AuditRecord(AuditRecord.newId(), AuditRecord.Kind.UNSEEN_RESPONSE, null,
                exchange.requestId(), exchange.upstreamRequestId(), exchange.principal().user(), team, exchange.session(),
                null, OpenAiFormat.namedContainer(tools), request.path("model").asString(null),
                failure != null ? failure.code() : "unanswered", null, null, null, false,
                json.writeValueAsString(details), clock.instant(), List.of()), () -> unseenResponses.with(team).increment());
    }

    private void recordShellCall(Exchange exchange, CodeReview.Streak streak, ShellCallRecords.ShellCall call) {
        if (call.finished()) {
            auditShellCall(exchange, streak, call, null);
        }
    }

    /** @param endUnseen why the record shows no end of the call, or {@code null} when it does */
    private void auditShellCall(Exchange exchange, CodeReview.Streak streak, ShellCallRecords.ShellCall call, String endUnseen) {
        String callId = call.id();
        if (callId == null || !exchange.get(AUDITED_CALLS).add(callId) || recordedBefore(exchange, callId)) {
            return;
        }
        CodeReview.Result reviewed = review.reviewShell(streak, call.commands(), call.outcome());
        String team = exchange.principal().team();
        AuditRecord record = shellCalls.record(exchange, call, reviewed, details(reviewed, endUnseen));
        auditLog.stage(exchange.settlement(), record, () -> {
            shellExecutions.with(team, call.status()).increment();
            countFlags(record, team);
        });
    }

    private void recordCall(Exchange exchange, CodeReview.Streak streak, OutputItem call) {
        if (call.finished()) {
            audit(exchange, streak, call, null);
        }
    }

    /** @param endUnseen why the record shows no end of the call, or {@code null} when it does */
    private void audit(Exchange exchange, CodeReview.Streak streak, OutputItem call, String endUnseen) {
        String callId = call.id();
        if (callId == null || !exchange.get(AUDITED_CALLS).add(callId) || recordedBefore(exchange, callId)) {
            return;
        }
        String code = call.code();
        String status = call.status();
        JsonNode printed = call.json().path("outputs");
        String outputs = printed.isMissingNode() || printed.isNull() ? null : json.writeValueAsString(printed);
        boolean truncated = outputs != null && outputs.length() > maxOutputChars;
        CodeReview.Result reviewed = review.review(streak, call);
        String team = exchange.principal().team();
        ObjectNode details = details(reviewed, endUnseen);
        if (truncated) {
            details.put("outputs_cap_chars", maxOutputChars);
        }
        AuditRecord record = new AuditRecord(AuditRecord.newId(), AuditRecord.Kind.CODE_EXECUTION,
                callId, exchange.requestId(), exchange.upstreamRequestId(), exchange.principal().user(), team,
                exchange.session(), exchange.responseId(), call.containerId(), exchange.model(),
                status, code, Sha256.hex(code), truncated ? outputs.substring(0, maxOutputChars) : outputs,
                truncated, json.writeValueAsString(details), clock.instant(), reviewed.names());
        auditLog.stage(exchange.settlement(), record, () -> {
            codeExecutions.with(team, status).increment();
            countFlags(record, team);
        });
    }

    /** Counts the record's flags, each named once. */
    private void countFlags(AuditRecord record, String team) {
        record.flags().forEach(flag -> flags.with(flag, team).increment());
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

    /**
     * Outcome, failure streak and flag details (hosts, paths, files; never the code's strings otherwise), and why the
     * record shows no end of the call ({@code endUnseen}, where it does not).
     */
    private ObjectNode details(CodeReview.Result reviewed, String endUnseen) {
        ObjectNode details = json.createObjectNode();
        details.put("outcome", reviewed.outcome().name().toLowerCase(java.util.Locale.ROOT));
        details.put(SessionFailures.FIELD, reviewed.failuresInARow());
        if (!reviewed.flags().isEmpty()) {
            var flags = details.putArray("flags");
            for (CodeFlag flag : reviewed.flags()) {
                flags.addObject().put("flag", flag.flag()).put("detail", flag.detail());
            }
        }
        if (endUnseen != null) {
            details.put("end_unseen", endUnseen);
        }
        return details;
    }
}
