package com.sandboxgateway.tracing;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.budget.TurnReservation;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.OpenAiFormat;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.ResponseInspector;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import tools.jackson.databind.JsonNode;

/**
 * The spans of one request below the server span that Spring opens for it: a child per policy step that
 * did work (it refused, or changed the exchange: see {@link StepFootprint}), the client span of the call
 * to OpenAI ({@code chat <model>} for a response, with the GenAI attributes), and under it a span per
 * executed code block ({@code execute_tool code_interpreter}) and hosted shell call ({@code execute_tool shell},
 * from its {@code shell_call} to its {@code shell_call_output}). The server span gets the gateway's facts
 * when the exchange ends. With tracing off, spans are neither recorded nor looked up.
 */
@Component
public final class RequestTracing implements ChainObserver, ResponseInspector {

    private final Tracer tracer;
    private final Clock clock;
    /** Whether spans may be recorded at all: with tracing off none is ({@link TracingConfiguration}), so none is looked up. */
    private final boolean tracing;
    /** Per exchange in flight: its client span, open code-block and shell-call spans and executed count. */
    private final Map<Exchange, Calls> calls = new ConcurrentHashMap<>();

    RequestTracing(Tracer tracer, Clock clock, @Value("${" + TracingConfiguration.ENABLED + ":true}") boolean tracing) {
        this.tracer = tracer;
        this.clock = clock;
        this.tracing = tracing;
    }

    @Override
    public Decision step(RequestStep step, Exchange exchange) {
        Span request = recordedRequest();
        if (request == null) {
            return step.apply(exchange);
        }
        StepFootprint before = StepFootprint.of(exchange);
        Instant started = clock.instant();
        Decision decision;
        try {
            decision = step.apply(exchange);
        } catch (RuntimeException e) {
            stepSpan(request, step, started, "failed").error(e).end(micros(clock.instant()), TimeUnit.MICROSECONDS);
            throw e;
        }
        if (decision instanceof Decision.Reject reject) {
            stepSpan(request, step, started, "refused").tag(SpanAttributes.REFUSAL, reject.code().code())
                    .end(micros(clock.instant()), TimeUnit.MICROSECONDS);
        } else if (!before.equals(StepFootprint.of(exchange))) {
            stepSpan(request, step, started, "changed").end(micros(clock.instant()), TimeUnit.MICROSECONDS);
        }
        return decision;
    }

    /**
     * The request's server span, or {@code null} when it is not recorded: tracing is off (every span is a no-op, so
     * not even looked up) or this trace was not sampled. Then no child span is made either, and a request costs at
     * most this look-up per stage; nothing a no-op span would have carried is seen anywhere (no export, no exemplar, no
     * audit trace id).
     */
    private Span recordedRequest() {
        if (!tracing) {
            return null;
        }
        Span span = tracer.currentSpan();
        return span == null || span.isNoop() ? null : span;
    }

    /** A step's span is made once the step is over, since only then is it known whether it did work. */
    private Span stepSpan(Span request, RequestStep step, Instant started, String outcome) {
        String name = step.getClass().getSimpleName();
        return tracer.spanBuilder().setParent(request.context()).name("policy " + name).tag(SpanAttributes.STEP, name)
                .tag(SpanAttributes.STEP_OUTCOME, outcome).startTimestamp(micros(started), TimeUnit.MICROSECONDS).start();
    }

    /** Opens the client span of the call to OpenAI, current until the returned call is closed. */
    public UpstreamCall upstreamCall(Exchange exchange) {
        Span request = recordedRequest();
        if (request == null) {
            return UpstreamCall.NONE;
        }
        boolean model = exchange.route().route() == Route.RESPONSES_CREATE;
        String requestedModel = model && exchange.json() != null ? exchange.json().path("model").asString(null) : null;
        Span.Builder builder = tracer.spanBuilder().setParent(request.context()).kind(Span.Kind.CLIENT)
                .name(model ? "chat" + (requestedModel == null ? "" : " " + requestedModel) : "openai " + routeName(exchange))
                .tag(SpanAttributes.PROVIDER, "openai");
        if (model) {
            builder.tag(SpanAttributes.OPERATION, "chat");
            if (requestedModel != null) {
                builder.tag(SpanAttributes.REQUEST_MODEL, requestedModel);
            }
            if (exchange.session() != null) {
                builder.tag(SpanAttributes.CONVERSATION, exchange.session());
            }
        }
        Span client = builder.start();
        // The turn budget settles (and takes) its reservation before the exchange is finished: note it now.
        TurnReservation reservation = TurnReservation.of(exchange);
        calls.put(exchange, new Calls(client, reservation == null ? null : reservation.reserved()));
        return new UpstreamCall(client, tracer.withSpan(client));
    }

    @Override
    public void inspect(Exchange exchange, Answer answer) {
        Calls traced = calls.get(exchange);
        if (traced == null) {
            return;
        }
        if (!answer.isEvent()) {
            // A fetched response's calls ran in the call that created it, which traced them; a fetched stream resumes one.
            if (exchange.route().route() == Route.RESPONSES_CREATE) {
                answer.response().ifPresent(response -> {
                    traced.response(response);
                    for (OutputItem item : response.output()) {
                        traced.itemAdded(item);
                        traced.itemDone(item);
                    }
                });
            }
            return;
        }
        String type = answer.type();
        if (OpenAiFormat.OUTPUT_ITEM_ADDED.equals(type)) {
            answer.item().ifPresent(traced::itemAdded);
        } else if (OpenAiFormat.OUTPUT_ITEM_DONE.equals(type)) {
            answer.item().ifPresent(traced::itemDone);
        } else if (OpenAiFormat.RESPONSE_CREATED.equals(type) || OpenAiFormat.FINISHING_EVENTS.contains(type)) {
            answer.response().ifPresent(traced::response);
        }
    }

    @Override
    public void finished(Exchange exchange, ErrorCode failure) {
        Calls traced = calls.remove(exchange);
        if (traced != null) {
            traced.endOpenCalls();
        }
        Span request = recordedRequest();
        if (request == null) {
            return;
        }
        request.tag(SpanAttributes.TEAM, exchange.principal().team()).tag(SpanAttributes.ROUTE, routeName(exchange))
                .tag(SpanAttributes.REQUEST_ID, exchange.requestId());
        if (exchange.session() != null) {
            request.tag(SpanAttributes.CONVERSATION, exchange.session());
        }
        if (traced != null) {
            if (traced.reserved != null) {
                request.tag(SpanAttributes.TURNS_RESERVED, traced.reserved);
            }
            request.tag(SpanAttributes.TURNS_EXECUTED, traced.executed);
        }
        if (failure != null) {
            request.tag(SpanAttributes.REFUSAL, failure.code()).tag(SpanAttributes.ERROR_TYPE, failure.code());
        }
    }

    private static String routeName(Exchange exchange) {
        return exchange.route().route().name().toLowerCase(Locale.ROOT);
    }

    private static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    /** The client span of one exchange and the code blocks and shell calls seen in its answer. */
    private final class Calls {

        private final Span client;
        private final Integer reserved;
        private final Map<String, Span> open = new HashMap<>();
        private int executed;

        Calls(Span client, Integer reserved) {
            this.client = client;
            this.reserved = reserved;
        }

        void response(ResponseView response) {
            tagIfPresent(SpanAttributes.RESPONSE_ID, response.id());
            tagIfPresent(SpanAttributes.RESPONSE_MODEL, response.model());
            JsonNode usage = response.json().path("usage");
            if (usage.has("input_tokens")) {
                client.tag(SpanAttributes.INPUT_TOKENS, usage.path("input_tokens").asLong());
            }
            if (usage.has("output_tokens")) {
                client.tag(SpanAttributes.OUTPUT_TOKENS, usage.path("output_tokens").asLong());
            }
        }

        /** A code block starts with its item; a shell call with its {@code shell_call}, keyed by its model call id. */
        void itemAdded(OutputItem item) {
            switch (item.kind()) {
                case CODE_INTERPRETER_CALL -> started(codeKey(item), OpenAiFormat.CODE_INTERPRETER, item);
                case SHELL_CALL -> started(shellKey(item), OpenAiFormat.SHELL, item);
                default -> { }
            }
        }

        /** A code block ends with its item; a shell call with its {@code shell_call_output}, whose status it takes. */
        void itemDone(OutputItem item) {
            switch (item.kind()) {
                case CODE_INTERPRETER_CALL -> done(codeKey(item), item);
                case SHELL_CALL_OUTPUT -> done(shellKey(item), item);
                default -> { }
            }
        }

        private static String codeKey(OutputItem item) {
            return item.id() == null ? "" : item.id();
        }

        private static String shellKey(OutputItem item) {
            return "shell " + (item.callId() == null ? "" : item.callId());
        }

        private void started(String key, String tool, OutputItem item) {
            open.computeIfAbsent(key, k -> tracer.spanBuilder().setParent(client.context())
                    .name("execute_tool " + tool).tag(SpanAttributes.OPERATION, "execute_tool").tag(SpanAttributes.TOOL_NAME, tool)
                    .tag(SpanAttributes.TOOL_TYPE, "extension").tag(SpanAttributes.TOOL_CALL_ID, codeKey(item))
                    .start());
        }

        private void done(String key, OutputItem item) {
            Span span = open.remove(key);
            if (span != null) {
                String status = item.status() == null ? "unknown" : item.status();
                span.tag(SpanAttributes.CODE_STATUS, status);
                if (!"completed".equals(status)) {
                    span.tag(SpanAttributes.ERROR_TYPE, status);
                }
                span.end();
                executed++;
            }
        }

        void endOpenCalls() {
            open.values().forEach(span -> span.tag(SpanAttributes.CODE_STATUS, "unfinished").end());
            open.clear();
            client.tag(SpanAttributes.TURNS_EXECUTED, executed);
        }

        private void tagIfPresent(String key, String value) {
            if (value != null) {
                client.tag(key, value);
            }
        }
    }

    /** The call to OpenAI as a client span, current until closed. */
    public static final class UpstreamCall implements AutoCloseable {

        static final UpstreamCall NONE = new UpstreamCall(null, null);

        private final Span span;
        private final Tracer.SpanInScope scope;

        private UpstreamCall(Span span, Tracer.SpanInScope scope) {
            this.span = span;
            this.scope = scope;
        }

        /** OpenAI's status; an error status marks the span. */
        public void answered(int status) {
            if (span != null) {
                span.tag(SpanAttributes.HTTP_STATUS, status);
                if (status >= 400) {
                    span.tag(SpanAttributes.ERROR_TYPE, Integer.toString(status));
                }
            }
        }

        @Override
        public void close() {
            if (span != null) {
                scope.close();
                span.end();
            }
        }
    }
}
