import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Time to first event of a streamed {@code POST /v1/responses}: n sequential {@code stream:true}
 * requests, each timed from just before the request is written until the first complete SSE event
 * ({@code event: response.created ... \n\n}) has been read.
 *
 * <p>Usage: {@code java bench/FirstEvent.java <baseUrl> <n> [apiKey]}, e.g.
 * {@code java bench/FirstEvent.java http://127.0.0.1:18080 200}. The key defaults to
 * {@code sk-gw-dev-alice} (gateway dev profile), which the simulator accepts as well.
 *
 * <p>It speaks HTTP/1.1 over a plain socket rather than using {@code java.net.http.HttpClient}:
 * the client's own selector thread and body-subscriber hand-offs would add jitter of the same order
 * as the overhead being measured. One keep-alive connection is reused, as an SDK's pool would, so a
 * TCP handshake is not counted; each stream is read to its end so the connection can be reused, and
 * the time to the last byte is reported too (it shows whether anything buffers the stream).
 *
 * <p>The last line is machine-readable ({@code FIRST_EVENT_RESULT ...}) for bench/run.sh.
 */
public final class FirstEvent {

    private static final String BODY = "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"stream\":true,"
            + "\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}";
    private static final String FIRST_EVENT = "event: response.created";
    /** Discarded requests before timing starts: the first few pay for class loading on both sides. */
    private static final int WARM_UP = 10;

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java FirstEvent.java <baseUrl> <n> [apiKey]");
            System.exit(2);
        }
        URI base = URI.create(args[0]);
        int n = Integer.parseInt(args[1]);
        String key = args.length > 2 ? args[2] : "sk-gw-dev-alice";
        String host = base.getHost();
        int port = base.getPort() == -1 ? 80 : base.getPort();
        byte[] request = ("POST /v1/responses HTTP/1.1\r\n"
                + "Host: " + host + ":" + port + "\r\n"
                + "Authorization: Bearer " + key + "\r\n"
                + "Content-Type: application/json\r\n"
                + "Accept: text/event-stream\r\n"
                + "Content-Length: " + BODY.getBytes(StandardCharsets.UTF_8).length + "\r\n"
                + "\r\n" + BODY).getBytes(StandardCharsets.UTF_8);

        long[] firstEvent = new long[n];
        long[] lastByte = new long[n];
        Connection connection = null;
        for (int i = -WARM_UP; i < n; i++) {
            if (connection == null || connection.mustClose) {
                if (connection != null) {
                    connection.close();
                }
                connection = new Connection(host, port);
            }
            long[] t = connection.exchange(request);
            if (i >= 0) {
                firstEvent[i] = t[0];
                lastByte[i] = t[1];
            }
        }
        connection.close();

        Arrays.sort(firstEvent);
        Arrays.sort(lastByte);
        System.out.printf(Locale.ROOT, "%s: %d sequential streams, time to first event ms: median %.2f, p90 %.2f,"
                        + " p99 %.2f, min %.2f, max %.2f; time to last byte ms: median %.2f%n",
                base, n, ms(pct(firstEvent, 50)), ms(pct(firstEvent, 90)), ms(pct(firstEvent, 99)),
                ms(firstEvent[0]), ms(firstEvent[n - 1]), ms(pct(lastByte, 50)));
        System.out.printf(Locale.ROOT, "FIRST_EVENT_RESULT n=%d median_ms=%.3f p90_ms=%.3f p99_ms=%.3f min_ms=%.3f"
                        + " max_ms=%.3f last_byte_median_ms=%.3f%n",
                n, ms(pct(firstEvent, 50)), ms(pct(firstEvent, 90)), ms(pct(firstEvent, 99)),
                ms(firstEvent[0]), ms(firstEvent[n - 1]), ms(pct(lastByte, 50)));
    }

    /** Nearest-rank percentile of sorted values. */
    static long pct(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** One HTTP/1.1 connection; just enough of the protocol for a chunked or sized SSE answer. */
    static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        boolean mustClose;

        Connection(String host, int port) throws IOException {
            socket = new Socket();
            // Requests are single small writes; Nagle would only delay them.
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            socket.connect(new InetSocketAddress(host, port), 5_000);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            out = socket.getOutputStream();
        }

        /** Returns {nanos to first complete event, nanos to last body byte}. */
        long[] exchange(byte[] request) throws IOException {
            long start = System.nanoTime();
            out.write(request);
            out.flush();

            String status = line();
            boolean chunked = false;
            long length = -1;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).trim());
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    mustClose = true;
                }
            }
            if (!status.startsWith("HTTP/1.1 200")) {
                throw new IOException("expected 200, got '" + status + "'");
            }

            // Scan decoded body bytes for the blank line ending the first event. Only the first
            // event's text is kept, to check it is the one the client is waiting for.
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            long firstAt = -1;
            int previous = -1;
            byte[] buffer = new byte[16 * 1024];
            long remainingInChunk = chunked ? chunkSize() : length;
            while (remainingInChunk != 0) {
                int want = remainingInChunk < 0 ? buffer.length : (int) Math.min(buffer.length, remainingInChunk);
                int read = in.read(buffer, 0, want);
                if (read < 0) {
                    if (remainingInChunk < 0) {
                        mustClose = true; // body delimited by connection close
                        break;
                    }
                    throw new EOFException("stream cut short");
                }
                if (firstAt < 0) {
                    for (int i = 0; i < read; i++) {
                        int b = buffer[i];
                        if (b == '\n' && previous == '\n') {
                            firstAt = System.nanoTime();
                            first.write(buffer, 0, i);
                            break;
                        }
                        previous = b;
                    }
                    if (firstAt < 0) {
                        first.write(buffer, 0, read);
                    }
                }
                if (remainingInChunk > 0) {
                    remainingInChunk -= read;
                    if (remainingInChunk == 0 && chunked) {
                        line(); // CRLF after chunk data
                        remainingInChunk = chunkSize();
                    }
                }
            }
            if (chunked) {
                // Trailer section, normally just the final CRLF.
                while (!line().isEmpty()) {
                    // ignore trailers
                }
            }
            long end = System.nanoTime();
            String event = first.toString(StandardCharsets.UTF_8);
            if (firstAt < 0 || !event.stripLeading().startsWith(FIRST_EVENT)) {
                throw new IOException("first event was not '" + FIRST_EVENT + "': "
                        + event.substring(0, Math.min(200, event.length())));
            }
            return new long[] {firstAt - start, end - start};
        }

        private long chunkSize() throws IOException {
            String size = line();
            int semicolon = size.indexOf(';');
            return Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
        }

        /** One CRLF-terminated line of the HTTP framing, without the terminator. */
        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new EOFException("connection closed mid-line");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
