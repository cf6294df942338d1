import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the slow requests at one connection waited for: the tail behind the added p99 of bench/proxy.sh's one-connection
 * cell, request by request, against a JFR recording of the server made while they ran (bench/slow.sh records it).
 *
 * <p>{@code java bench/SlowRequests.java send <port> <n> <times.tsv>} sends n benchmark requests
 * ({@code bench/responses.lua}'s code-interpreter request with its file) one after the other on one keep-alive
 * connection, over a plain socket as {@code FirstEvent} does, and writes each one's start (epoch µs) and latency (µs).
 *
 * <p>{@code java bench/SlowRequests.java explain <recording.jfr> <times.tsv> <upstreamPort> <thresholdUs>} prints the
 * latency percentiles and gives every request slower than the threshold the first cause that overlapped it, in this
 * order: a collection (a {@code jdk.GarbageCollection} pause); the upstream's answer (a read of the upstream's socket
 * that blocked 1 ms or more); another socket's read (the same on any other port: PostgreSQL's answer, mostly); a
 * lock (any thread of the server blocked 0.5 ms or more entering a monitor); another thread of the server on the CPU
 * (a {@code jdk.CPUTimeSample} of a platform thread other than the virtual threads' carriers, named); else nothing the
 * recording shows: the core taken by another process, the scheduler's latency, or a request's virtual thread waiting
 * (for Redis's answer, a pooled connection, a group commit: JFR records no park of a virtual thread).
 */
public final class SlowRequests {

    private static final String BODY = "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"tools\":[{\"type\":\"code_interpreter\","
            + "\"container\":{\"type\":\"auto\",\"file_ids\":[\"file-benchdata0001\"]}}]}";
    private static final long READ_WAIT_US = 1_000;
    private static final long LOCK_WAIT_US = 500;
    private static final String COLLECTION = "a collection";
    private static final String UPSTREAM = "the upstream's answer";
    private static final String OTHER_SOCKET = "another socket's read";
    private static final String LOCK = "a lock";
    private static final String OTHER_THREAD = "another thread of the server";
    private static final String NOTHING = "nothing the recording shows";

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "send" -> send(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Path.of(args[3]));
            case "explain" -> explain(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]));
            default -> {
                System.err.println("usage: java SlowRequests.java send <port> <n> <times.tsv>"
                        + " | explain <recording.jfr> <times.tsv> <upstreamPort> <thresholdUs>");
                System.exit(2);
            }
        }
    }

    // --- send ----------------------------------------------------------------------------------------------------

    private static void send(int port, int n, Path out) throws IOException {
        byte[] request = ("POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "Authorization: Bearer sk-gw-dev-alice\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + BODY.length() + "\r\n\r\n" + BODY).getBytes(StandardCharsets.US_ASCII);
        long[] starts = new long[n];
        long[] latencies = new long[n];
        Socket socket = null;
        InputStream in = null;
        try {
            for (int i = 0; i < n; i++) {
                // The server closes a keep-alive connection after its max-keep-alive-requests: open the next one untimed.
                if (socket == null || socket.isClosed()) {
                    socket = new Socket("127.0.0.1", port);
                    socket.setTcpNoDelay(true);
                    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
                }
                Instant start = Instant.now();
                long t0 = System.nanoTime();
                OutputStream os = socket.getOutputStream();
                os.write(request);
                os.flush();
                if (!readAnswer(in)) {
                    socket.close();
                }
                latencies[i] = (System.nanoTime() - t0) / 1_000;
                starts[i] = start.getEpochSecond() * 1_000_000 + start.getNano() / 1_000;
            }
        } finally {
            if (socket != null) {
                socket.close();
            }
        }
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out))) {
            for (int i = 0; i < n; i++) {
                writer.println(starts[i] + "\t" + latencies[i]);
            }
        }
    }

    /** Reads one answer (status 200, a length or chunks); returns whether the connection stays open. */
    private static boolean readAnswer(InputStream in) throws IOException {
        String status = line(in);
        if (!status.startsWith("HTTP/1.1 200")) {
            throw new IOException("the server answered " + status);
        }
        int length = -1;
        boolean chunked = false;
        boolean keepAlive = true;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            String h = header.toLowerCase(Locale.ROOT);
            if (h.startsWith("content-length:")) {
                length = Integer.parseInt(h.substring(15).trim());
            } else if (h.startsWith("transfer-encoding:")) {
                chunked = h.contains("chunked");
            } else if (h.startsWith("connection:")) {
                keepAlive = !h.contains("close");
            }
        }
        if (chunked) {
            for (int size = Integer.parseInt(line(in).trim(), 16); size > 0; size = Integer.parseInt(line(in).trim(), 16)) {
                in.readNBytes(size);
                line(in);
            }
            line(in);
        } else {
            in.readNBytes(length);
        }
        return keepAlive;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the server closed the connection");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    // --- explain -------------------------------------------------------------------------------------------------

    /** Something the recording saw, from {@code start} for {@code duration} µs. */
    private record Span(long start, long duration, String what) {

        boolean overlaps(long from, long to) {
            return start < to && start + duration > from;
        }
    }

    private static void explain(Path recording, Path times, int upstreamPort, long thresholdUs) throws IOException {
        List<long[]> requests = Files.readAllLines(times).stream()
                .map(line -> Arrays.stream(line.split("\t")).mapToLong(Long::parseLong).toArray()).toList();
        long[] latencies = requests.stream().mapToLong(request -> request[1]).sorted().toArray();
        System.out.printf("%d requests, latency p50 %d, p90 %d, p99 %d, p99.9 %d, max %d µs%n", latencies.length,
                percentile(latencies, 50), percentile(latencies, 90), percentile(latencies, 99),
                percentile(latencies, 99.9), latencies[latencies.length - 1]);

        Map<String, List<Span>> causes = causes(recording, upstreamPort);
        Map<String, Integer> slowBy = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> namedBy = new LinkedHashMap<>();
        int slow = 0;
        for (long[] request : requests) {
            if (request[1] < thresholdUs) {
                continue;
            }
            slow++;
            long from = request[0];
            long to = from + request[1];
            String first = causes.keySet().stream()
                    .filter(cause -> causes.get(cause).stream().anyMatch(span -> span.overlaps(from, to)))
                    .findFirst().orElse(NOTHING);
            slowBy.merge(first, 1, Integer::sum);
            causes.getOrDefault(first, List.of()).stream().filter(span -> span.overlaps(from, to)).map(Span::what)
                    .distinct().forEach(what -> namedBy.computeIfAbsent(first, c -> new TreeMap<>()).merge(what, 1, Integer::sum));
        }
        System.out.printf("%d slower than %d µs (%.2f %%), the first cause that overlapped each (what it was: requests):%n",
                slow, thresholdUs, 100.0 * slow / requests.size());
        for (String cause : List.of(COLLECTION, UPSTREAM, OTHER_SOCKET, LOCK, OTHER_THREAD, NOTHING)) {
            int count = slowBy.getOrDefault(cause, 0);
            System.out.printf("  %5d  %5.1f %%  %s%s%n", count, slow == 0 ? 0.0 : 100.0 * count / slow, cause,
                    namedBy.containsKey(cause) ? " " + namedBy.get(cause) : "");
        }
        List<Span> collections = causes.get(COLLECTION).stream()
                .filter(span -> span.overlaps(requests.getFirst()[0], requests.getLast()[0])).toList();
        System.out.printf("collections during the run: %d, %d µs in all%n", collections.size(),
                collections.stream().mapToLong(Span::duration).sum());
    }

    /** What the recording saw that can hold a request up, by cause, in the order a slow request is given one. */
    private static Map<String, List<Span>> causes(Path recording, int upstreamPort) throws IOException {
        Map<String, List<Span>> causes = new LinkedHashMap<>();
        for (String cause : List.of(COLLECTION, UPSTREAM, OTHER_SOCKET, LOCK, OTHER_THREAD)) {
            causes.put(cause, new ArrayList<>());
        }
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            long start = event.getStartTime().getEpochSecond() * 1_000_000 + event.getStartTime().getNano() / 1_000;
            long duration = event.getDuration().toNanos() / 1_000;
            switch (event.getEventType().getName()) {
                case "jdk.GarbageCollection" -> causes.get(COLLECTION).add(new Span(start, duration, event.getString("name")));
                case "jdk.SocketRead" -> {
                    int port = event.getInt("port");
                    if (duration >= READ_WAIT_US) {
                        causes.get(port == upstreamPort ? UPSTREAM : OTHER_SOCKET).add(new Span(start, duration, "port " + port));
                    }
                }
                case "jdk.JavaMonitorEnter" -> {
                    if (duration >= LOCK_WAIT_US) {
                        causes.get(LOCK).add(new Span(start, duration, event.getClass("monitorClass").getName()));
                    }
                }
                case "jdk.CPUTimeSample" -> {
                    RecordedThread thread = event.getThread("eventThread");
                    if (thread != null && !thread.isVirtual() && !String.valueOf(thread.getJavaName()).startsWith("ForkJoinPool")) {
                        causes.get(OTHER_THREAD).add(new Span(start, 1, threadName(thread)));
                    }
                }
                default -> { }
            }
        }
        return causes;
    }

    /** A thread's name without its number, so a pool's threads count as one. */
    private static String threadName(RecordedThread thread) {
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return name.replaceAll("[-#]?\\d+$", "").replaceAll(" /.*", "");
    }

    private static long percentile(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100 * sorted.length) - 1)];
    }
}
