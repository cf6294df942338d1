package com.sandboxgateway.policy;

import com.sandboxgateway.multipart.MultipartUpload;

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

    /** A multipart upload, streamed through as it arrives and never held whole in memory. */
    record Multipart(MultipartUpload upload) implements RequestBody {
    }
}
