package com.sandboxgateway.upstream;

/**
 * One server-sent event as it came off the wire. {@code raw} holds its exact bytes (comments, field
 * order and line endings included) so relaying it changes nothing.
 *
 * @param event the {@code event:} field, or {@code null}
 * @param data the {@code data:} lines joined by newlines, or {@code null} for a comment-only block
 * @param complete false for a trailing block the stream cut off before its blank line
 */
public record SseEvent(byte[] raw, String event, String data, boolean complete) {

    /** The {@code [DONE]} sentinel that some OpenAI-compatible servers send; OpenAI's Responses API does not. */
    public boolean isDoneSentinel() {
        return "[DONE]".equals(data);
    }
}
