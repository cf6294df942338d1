package com.sandboxgateway.policy;

import java.io.InputStream;

import tools.jackson.databind.node.ObjectNode;

/** The body of a client request as the policy steps see it. */
public sealed interface RequestBody {

    /** No body (GET, DELETE and bodiless POSTs). */
    record None() implements RequestBody {
    }

    /**
     * A JSON object, parsed for the steps. {@code raw} holds the client's exact bytes, which go
     * upstream untouched unless a step replaced the object.
     */
    record Json(ObjectNode object, byte[] raw) implements RequestBody {
    }

    /**
     * A body streamed through as it arrives (multipart uploads), never held whole in memory.
     *
     * @param length the byte count, or -1 when unknown
     */
    record Stream(InputStream content, long length, String contentType) implements RequestBody {
    }
}
