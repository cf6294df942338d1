package com.sandboxgateway.policy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.sandboxgateway.api.RouteMatch;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.openai.OutputItem;
import com.sandboxgateway.policy.input.InputPlaces;
import com.sandboxgateway.policy.input.RequestWalk;

import tools.jackson.databind.node.ObjectNode;

/**
 * Everything the gateway knows about one request on its way through: who sent it, which route, the
 * gateway headers it carried, its body, and the headers the steps want on the answer. Typed fields
 * only: a step that needs to carry something new adds a field here, so the flow stays readable.
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
    private TurnReservation turnReservation;
    private final Set<String> auditedCalls = new HashSet<>();
    private final Set<String> ownedObjects = new HashSet<>();
    private final Map<String, OutputItem> streamedShellCalls = new HashMap<>();
    private final Settlement settlement = new Settlement();

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

    /** Adds a parameter to the upstream query (the value must already be URL-encoded). */
    public void addQueryParameter(String encodedName, String encodedValue) {
        String parameter = encodedName + "=" + encodedValue;
        rawQuery = rawQuery == null || rawQuery.isEmpty() ? parameter : rawQuery + "&" + parameter;
    }

    /**
     * The session: the {@code X-Gateway-Session} header, or for a new response the one {@code budget.Sessions}
     * resolved (its conversation, the root of the {@code previous_response_id} chain, an explicit container); for
     * a request that starts a session, the response's id once an answer named it; {@code null} when none is known
     * yet. A fetched response's session is known once its turn charge was read from its answer.
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

    /** Turns reserved for this request, until an inspector settles them. */
    public void turnsReserved(TurnReservation reservation) {
        this.turnReservation = reservation;
    }

    /** The unsettled turn reservation, handed over once: the caller settles it; {@code null} if none. */
    public TurnReservation takeTurnReservation() {
        TurnReservation reservation = turnReservation;
        turnReservation = null;
        return reservation;
    }

    /** The unsettled turn reservation without taking it; {@code null} if none. */
    public TurnReservation turnReservation() {
        return turnReservation;
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

    /** Marks a code-interpreter or shell call as audited by this exchange; false if it already was. */
    public boolean firstAuditOf(String callId) {
        return auditedCalls.add(callId);
    }

    /** A stream's finished {@code shell_call} item, kept until its {@code shell_call_output} arrives to be audited with it. */
    public void shellCallStreamed(OutputItem call) {
        if (call.callId() != null) {
            streamedShellCalls.put(call.callId(), call);
        }
    }

    /** The streamed {@code shell_call} of this model call id, once; {@code null} when the stream showed none. */
    public OutputItem takeStreamedShellCall(String callId) {
        return callId == null ? null : streamedShellCalls.remove(callId);
    }

    /** Marks an object as recorded for its owner by this exchange; false if it already was (a stream repeats ids). */
    public boolean firstOwnershipOf(String objectId) {
        return ownedObjects.add(objectId);
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
