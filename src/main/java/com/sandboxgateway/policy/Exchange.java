package com.sandboxgateway.policy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.policy.input.InputPlaces;
import com.sandboxgateway.policy.input.RequestWalk;

import tools.jackson.databind.node.ObjectNode;

/**
 * Everything the gateway knows about one request on its way through: who sent it, which route, the
 * gateway headers it carried, its body, its session, what the upstream answered, and the headers the steps want on
 * the answer. What the pipeline itself reads is a typed field here. What only one feature keeps over a request (the
 * turns it reserved, the calls it audited) is in a {@link Slot} that feature declares, so this core names no
 * feature's types (which would make a cycle of packages) and no one else reaches that state: there are no string keys
 * and no casts at the call sites.
 */
public final class Exchange {

    private final String requestId;
    private final Principal principal;
    private final RouteMatch route;
    private final String path;
    private String rawQuery;
    private String session;
    private boolean startsSession;
    private final String datasetProfile;
    private final Map<String, String> responseHeaders = new LinkedHashMap<>();
    private RequestBody body;
    private boolean bodyReplaced;
    private InputPlaces inputs;
    private String upstreamRequestId;
    private String responseId;
    private String model;
    private Integer upstreamStatus;
    private boolean upstreamUnanswered;
    private final Map<Slot<?>, Object> slots = new HashMap<>(4);
    private final Settlement settlement = new Settlement();

    /**
     * A place for one feature's state on an exchange, declared by that feature (as OpenTelemetry's {@code ContextKey}):
     * usually a private constant, so only the feature reads or writes it; compared by identity, never by name.
     *
     * @param <T> what it holds
     */
    public static final class Slot<T> {

        private final String name;
        private final Supplier<? extends T> initial;

        private Slot(String name, Supplier<? extends T> initial) {
            this.name = name;
            this.initial = initial;
        }

        /** A slot that holds nothing until a value is put in it. */
        public static <T> Slot<T> named(String name) {
            return new Slot<>(name, null);
        }

        /** A slot that holds {@code initial}'s value from its first read on: a set or map the feature adds to. */
        public static <T> Slot<T> withInitial(String name, Supplier<? extends T> initial) {
            return new Slot<>(name, Objects.requireNonNull(initial));
        }

        /** The name it was declared with, for debugging: two slots of one name are still two slots. */
        @Override
        public String toString() {
            return name;
        }
    }

    public Exchange(String requestId, Principal principal, RouteMatch route, String path, String rawQuery, String session,
                    String datasetProfile, RequestBody body) {
        this.requestId = requestId;
        this.principal = principal;
        this.route = route;
        this.path = path;
        this.rawQuery = rawQuery;
        this.session = session;
        this.datasetProfile = datasetProfile;
        this.body = body;
    }

    public String requestId() {
        return requestId;
    }

    public Principal principal() {
        return principal;
    }

    public RouteMatch route() {
        return route;
    }

    /** The request path exactly as sent (it matched {@link #route()}, so it holds no encoded characters). */
    public String path() {
        return path;
    }

    /** The query string to send upstream: the client's, plus what steps added. */
    public String rawQuery() {
        return rawQuery;
    }

    /** The path and query to send upstream. */
    public String pathAndQuery() {
        return rawQuery == null ? path : path + "?" + rawQuery;
    }

    /** Adds a parameter to the upstream query (the value must already be URL-encoded). */
    public void addQueryParameter(String encodedName, String encodedValue) {
        String parameter = encodedName + "=" + encodedValue;
        rawQuery = rawQuery == null || rawQuery.isEmpty() ? parameter : rawQuery + "&" + parameter;
    }

    /**
     * The session: the {@code X-Gateway-Session} header, or for a new response the one {@code budget.Sessions}
     * resolved (its conversation, the root of the {@code previous_response_id} chain, an explicit container); for
     * a request that starts a session, the response's id once an answer named it; {@code null} when none is known
     * yet. A fetched or cancelled response's is the session it was created in, resolved before it goes upstream.
     */
    public String session() {
        return session == null && startsSession ? responseId : session;
    }

    /** The request starts a new session: it takes the id of the response it creates. */
    public void startsSession() {
        this.startsSession = true;
    }

    public void sessionResolved(String session) {
        this.session = session;
    }

    /** The {@code X-Gateway-Dataset-Profile} header, or {@code null}. */
    public String datasetProfile() {
        return datasetProfile;
    }

    public RequestBody body() {
        return body;
    }

    /** The JSON request object, or {@code null} when the body is not JSON. */
    public ObjectNode json() {
        return body instanceof RequestBody.Json json ? json.object() : null;
    }

    /**
     * Every place of the body that holds text, a file or an id, and every part the gateway does not
     * govern: walked once, on first use, for the routes whose bodies carry model or sandbox input. The places are
     * the body's own nodes, so a step that rewrites one rewrites the body.
     */
    public InputPlaces inputs() {
        if (inputs == null) {
            ObjectNode object = json();
            inputs = object == null ? InputPlaces.NONE : switch (route.route()) {
                case RESPONSES_CREATE -> RequestWalk.ofResponseRequest(object);
                case CONTAINERS_CREATE -> RequestWalk.ofContainerRequest(object);
                case CONVERSATIONS_CREATE, CONVERSATION_UPDATE, CONVERSATION_ITEMS_CREATE ->
                        RequestWalk.ofConversationRequest(object);
                default -> InputPlaces.NONE;
            };
        }
        return inputs;
    }

    /** Replaces the body; the upstream gets the new one instead of the client's bytes. */
    public void replaceBody(RequestBody replacement) {
        this.body = replacement;
        this.bodyReplaced = true;
        this.inputs = null;
    }

    /** Marks the JSON object as edited in place, so it is serialized again rather than sent as received. */
    public void jsonEdited() {
        this.bodyReplaced = true;
    }

    public boolean bodyReplaced() {
        return bodyReplaced;
    }

    /** OpenAI's {@code x-request-id} for this call, once it answered; else {@code null}. */
    public String upstreamRequestId() {
        return upstreamRequestId;
    }

    public void upstreamAnswered(int status, String requestId) {
        this.upstreamStatus = status;
        this.upstreamRequestId = requestId;
    }

    /** The upstream's HTTP status, once it answered; else {@code null}. */
    public Integer upstreamStatus() {
        return upstreamStatus;
    }

    /** The upstream call failed after it may have reached OpenAI, before any answer came: what it started is unseen. */
    public void upstreamUnanswered() {
        this.upstreamUnanswered = true;
    }

    /**
     * Whether OpenAI may have acted on the request (run code, charged tokens): it answered with success, or the call
     * failed after it may have reached OpenAI and no answer came. A refusal, an error answer and a call that never
     * reached OpenAI did not.
     */
    public boolean upstreamMayHaveActed() {
        return upstreamStatus != null ? upstreamStatus >= 200 && upstreamStatus < 300 : upstreamUnanswered;
    }

    /** The response this exchange creates or reads, once the answer named it; else {@code null}. */
    public String responseId() {
        return responseId;
    }

    /** The model that answers, once the answer named it; else {@code null}. */
    public String model() {
        return model;
    }

    /** Notes the response the first answer naming one named; only the chain calls it, before any inspector runs. */
    void responseSeen(String responseId, String model) {
        if (this.responseId == null && responseId != null) {
            this.responseId = responseId;
            this.model = model;
        }
    }

    /**
     * What the slot holds: its initial value on a first read, if it has one; else {@code null} until something was
     * put in it.
     */
    public <T> T get(Slot<T> slot) {
        Object value = slots.get(slot);
        if (value == null && slot.initial != null) {
            value = slot.initial.get();
            slots.put(slot, value);
        }
        return cast(value);
    }

    /** Puts a value in the slot, replacing what it held. */
    public <T> void put(Slot<T> slot, T value) {
        slots.put(slot, Objects.requireNonNull(value, slot.name));
    }

    /** Empties the slot and returns what it held, or {@code null}: for state handed over once (a reservation to settle). */
    public <T> T take(Slot<T> slot) {
        return cast(slots.remove(slot));
    }

    /** Safe: {@link #put} and {@link #get} are the only writers, and each stores a {@code T} under a {@code Slot<T>}. */
    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }

    /** What the inspectors staged to be written and counted once they have all seen the current answer. */
    public Settlement settlement() {
        return settlement;
    }

    /** Adds a header to the answer the client gets, whatever the outcome. */
    public void addResponseHeader(String name, String value) {
        responseHeaders.put(name, value);
    }

    public Map<String, String> responseHeaders() {
        return Map.copyOf(responseHeaders);
    }
}
