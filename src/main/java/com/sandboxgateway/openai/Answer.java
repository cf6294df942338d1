package com.sandboxgateway.openai;

import java.util.Optional;

import com.sandboxgateway.upstream.SseEvent;

import tools.jackson.databind.JsonNode;

/**
 * One answer of the upstream as the relay parsed it, once: a whole (successful) JSON body, or one event of
 * a stream. Inspectors read it through this view; unknown fields and events are simply not named here,
 * and the client receives the upstream's bytes unchanged unless an after-answer action replaced a JSON body.
 *
 * @param json the JSON body, or the event's parsed {@code data}; {@code null} for an event without JSON data
 * @param event the stream event, or {@code null} for a JSON body
 * @param response the response the answer shows: the body of a responses route, or an event's {@code response}
 * @param item an event's {@code item} ({@code response.output_item.added} and {@code .done})
 */
public record Answer(JsonNode json, SseEvent event, Optional<ResponseView> response, Optional<OutputItem> item) {

    /**
     * @param showsResponse whether the body is a response object (creating, fetching or cancelling one)
     */
    public static Answer ofJson(JsonNode body, boolean showsResponse) {
        return new Answer(body, null, showsResponse && body.isObject() ? Optional.of(ResponseView.of(body)) : Optional.empty(),
                Optional.empty());
    }

    /** @param data the event's parsed {@code data}, or {@code null} when it has none or it is not JSON */
    public static Answer ofEvent(SseEvent event, JsonNode data) {
        JsonNode response = data == null ? null : data.get("response");
        JsonNode item = data == null ? null : data.get("item");
        return new Answer(data, event, Optional.ofNullable(response).filter(JsonNode::isObject).map(ResponseView::of),
                Optional.ofNullable(item).filter(JsonNode::isObject).map(OutputItem::of));
    }

    public boolean isEvent() {
        return event != null;
    }

    /** The event's type (its {@code event:} name, else its data's {@code type}); {@code null} for a JSON body. */
    public String type() {
        if (event == null) {
            return null;
        }
        if (event.event() != null) {
            return event.event();
        }
        return json == null ? null : json.path("type").asString(null);
    }

    /**
     * The finished response the answer shows: a JSON response in a finished state, or the response a
     * {@code response.completed}, {@code .failed} or {@code .incomplete} event carries.
     */
    public Optional<ResponseView> finishedResponse() {
        return isEvent() ? response.filter(ignored -> OpenAiFormat.FINISHING_EVENTS.contains(type()))
                : response.filter(ResponseView::finished);
    }

    /** A {@code response.output_item.done} event's item. */
    public Optional<OutputItem> doneItem() {
        return OpenAiFormat.OUTPUT_ITEM_DONE.equals(type()) ? item : Optional.empty();
    }

    /** Whether the event ends a stream: a finishing event, an {@code error} event, or the {@code [DONE]} sentinel. */
    public boolean endsStream() {
        return isEvent() && (event.isDoneSentinel() || OpenAiFormat.FINISHING_EVENTS.contains(type())
                || OpenAiFormat.ERROR_EVENT.equals(type()));
    }

    /** The event's {@code sequence_number}, or -1 when it has none. */
    public long sequenceNumber() {
        return json == null ? -1 : json.path("sequence_number").asLong(-1);
    }

    /** This JSON answer with another body to relay (an after-answer action read further list pages). */
    public Answer replacedBy(JsonNode body) {
        if (isEvent()) {
            throw new IllegalStateException("a stream event is relayed as received");
        }
        return new Answer(body, null, response, item);
    }
}
