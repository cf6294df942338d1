package com.sandboxgateway.upstream;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/**
 * An upstream answer whose body is still on the wire. Reading the body to its end and closing this
 * returns the connection to the pool; closing early (or {@link #abort()}) drops the connection, which
 * is how a client's disconnect cancels the upstream call.
 */
public final class UpstreamResponse implements AutoCloseable {

    private final HttpUriRequestBase request;
    private final ClassicHttpResponse response;
    private final UpstreamWatchdog.Watch watch;
    private Runnable onClose = () -> { };

    /** An answer no watchdog ends (one made up by a test). */
    public UpstreamResponse(HttpUriRequestBase request, ClassicHttpResponse response) {
        this(request, response, null);
    }

    UpstreamResponse(HttpUriRequestBase request, ClassicHttpResponse response, UpstreamWatchdog.Watch watch) {
        this.request = request;
        this.response = response;
        this.watch = watch;
    }

    public int status() {
        return response.getCode();
    }

    /** The first value of a header, or {@code null}. */
    public String header(String name) {
        Header header = response.getFirstHeader(name);
        return header == null ? null : header.getValue();
    }

    /** All headers in arrival order. */
    public List<Map.Entry<String, String>> headers() {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        for (Header header : response.getHeaders()) {
            headers.add(Map.entry(header.getName(), header.getValue()));
        }
        return headers;
    }

    public boolean isEventStream() {
        String contentType = header("Content-Type");
        return contentType != null && contentType.regionMatches(true, 0, "text/event-stream", 0, 17);
    }

    /** The body as it arrives; empty when the answer has none. */
    public InputStream body() throws IOException {
        HttpEntity entity = response.getEntity();
        if (entity == null) {
            return InputStream.nullInputStream();
        }
        return watch == null ? entity.getContent() : new WatchedStream(entity.getContent(), watch);
    }

    /**
     * Reads the whole body, refusing one larger than {@code maxBytes} (a misbehaving upstream must not
     * exhaust the heap). A body of declared length is read into one array of that size; only one of unknown
     * length goes through {@code readNBytes}' 16 KB chunks (which a 3 KB answer would otherwise pay per request).
     */
    public byte[] readBody(int maxBytes) throws IOException {
        HttpEntity entity = response.getEntity();
        long declared = entity == null ? -1 : entity.getContentLength();
        try (InputStream in = body()) {
            byte[] bytes = in.readNBytes(declared >= 0 && declared <= maxBytes ? (int) declared : maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw new IOException("upstream body larger than " + maxBytes + " bytes");
            }
            return bytes;
        }
    }

    /** Drops the connection mid-answer; the upstream sees the call cancelled. */
    public void abort() {
        request.cancel();
    }

    /** Runs {@code action} once, when this answer is closed (releases what the call held). */
    void onClose(Runnable action) {
        this.onClose = action;
    }

    @Override
    public void close() {
        try {
            response.close();
        } catch (IOException ignored) {
            // The connection is discarded either way; nothing useful to report.
        } finally {
            if (watch != null) {
                watch.done();
            }
            Runnable action = onClose;
            onClose = () -> { };
            action.run();
        }
    }

    /** The body as read: each read restarts the watch's silence, and a read the watchdog ended is a timeout. */
    private static final class WatchedStream extends FilterInputStream {

        private final UpstreamWatchdog.Watch watch;

        WatchedStream(InputStream in, UpstreamWatchdog.Watch watch) {
            super(in);
            this.watch = watch;
        }

        @Override
        public int read() throws IOException {
            try {
                int read = in.read();
                watch.heard();
                return read;
            } catch (IOException e) {
                throw watch.failed(e);
            }
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            try {
                int read = in.read(buffer, offset, length);
                watch.heard();
                return read;
            } catch (IOException e) {
                throw watch.failed(e);
            }
        }
    }
}
