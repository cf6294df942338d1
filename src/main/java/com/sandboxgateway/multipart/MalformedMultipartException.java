package com.sandboxgateway.multipart;

import java.io.IOException;

/** The client's multipart body does not follow the format; the message says where it breaks. */
public final class MalformedMultipartException extends IOException {

    public MalformedMultipartException(String message) {
        super(message);
    }
}
