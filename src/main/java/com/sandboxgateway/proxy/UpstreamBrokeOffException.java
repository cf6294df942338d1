package com.sandboxgateway.proxy;

import java.io.IOException;

/**
 * The upstream broke off an answer whose headers the client already has. Thrown out of the servlet so
 * the container drops the client connection instead of ending the answer as if it were complete.
 */
final class UpstreamBrokeOffException extends RuntimeException {

    UpstreamBrokeOffException(IOException cause) {
        super("upstream broke off an answer already being relayed", cause);
    }
}
