package com.sandboxgateway.proxy;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Answers the requests Tomcat itself rejects before any application code runs (a header too large, an
 * encoded slash, a NUL byte or bad percent-encoding in the path) in the port's own error shape instead
 * of Tomcat's HTML page, and never with a stack trace. Nothing of the request is echoed.
 */
abstract class ContainerErrorReport extends ErrorReportValve {

    /** What every rejection tells the client; the request was malformed, so nothing was forwarded. */
    static final String MESSAGE = "The request could not be read: its request line or headers are malformed or too large "
            + "(an encoded slash, a NUL byte or invalid percent-encoding in the path, or headers larger than the server "
            + "accepts). Nothing was forwarded; fix the request and send it again.";

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        try {
            response.setContentType(contentType());
            response.setCharacterEncoding("utf-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body(status));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The connection is being closed on a malformed request; there is no one left to tell.
        }
    }

    abstract String contentType();

    abstract String body(int status);
}
