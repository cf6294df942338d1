package com.sandboxgateway.proxy;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Issues the gateway's own request ids ({@code gwreq_} + 24 hex), distinct from OpenAI's {@code req_}.
 * They identify, they do not authorize, so a fast non-cryptographic source is enough.
 */
final class RequestIds {

    private RequestIds() {
    }

    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "gwreq_" + HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextInt());
    }
}
