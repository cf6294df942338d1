package com.sandboxgateway.simulator;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.common.ConsoleNotifier;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;

/**
 * An offline stand-in for the OpenAI API surface that Code Interpreter uses (Responses, streaming,
 * Files, Containers, container files): an embedded WireMock server loaded with the mappings under
 * {@code classpath:simulator/} and bound to 127.0.0.1.
 *
 * <p>It lets the gateway, its tests and a newcomer run the whole flow without an API key. Point an
 * OpenAI client at {@code baseUrl() + "/v1"}; any {@code Authorization: Bearer ...} key is accepted.
 * Responses are stateless: ids are fresh on create and echoed from the path on retrieve/delete.
 * An id containing {@code doesnotexist} answers 404, an unknown route answers 404 {@code unknown_url}.
 */
public final class OfflineSimulator implements AutoCloseable {

    /** Port used by {@link #main} when neither an argument nor {@code SIMULATOR_PORT} names one. */
    static final int DEFAULT_PORT = 8089;

    private static final String LOOPBACK = "127.0.0.1";

    // Every streamed response holds a Jetty thread while its chunks dribble out (~300 ms),
    // so load tests with many parallel streams need far more than WireMock's default.
    private static final int CONTAINER_THREADS = 128;

    // Capped rather than disabled: tests can still verify recent requests, while a long-running
    // simulator does not keep every request body it ever received.
    private static final int REQUEST_JOURNAL_CAPACITY = 256;

    private final WireMockServer server;
    private final SimulatorFiles files;

    private OfflineSimulator(WireMockServer server, SimulatorFiles files) {
        this.server = server;
        this.files = files;
    }

    /**
     * Starts a simulator on {@code port} (0 picks a free port) and returns once it accepts requests.
     *
     * @throws IllegalArgumentException if the port is outside 0..65535
     * @throws IllegalStateException if the mappings cannot be found or the port cannot be bound
     */
    public static OfflineSimulator start(int port) {
        SimulatorPort.requireValid(port);
        SimulatorFiles files = SimulatorFiles.extractFromClasspath();
        WireMockServer server = new WireMockServer(configuration(port, files));
        try {
            server.start();
        } catch (RuntimeException e) {
            files.delete();
            throw new IllegalStateException(
                    "OpenAI simulator could not start on " + LOOPBACK + ":" + port
                            + "; pick another port (0 = any free port)", e);
        }
        return new OfflineSimulator(server, files);
    }

    private static WireMockConfiguration configuration(int port, SimulatorFiles files) {
        return WireMockConfiguration.options()
                .bindAddress(LOOPBACK)
                .port(port)
                .usingFilesUnderDirectory(files.root().toString())
                .containerThreads(CONTAINER_THREADS)
                .maxRequestJournalEntries(REQUEST_JOURNAL_CAPACITY)
                // Compression would buffer the event stream and deliver it in one piece.
                .gzipDisabled(true)
                .notifier(new ConsoleNotifier(false));
    }

    /** The root URL, without the {@code /v1} suffix, e.g. {@code http://127.0.0.1:8089}. */
    public String baseUrl() {
        return "http://" + LOOPBACK + ":" + port();
    }

    /** The port actually bound (useful after {@code start(0)}). */
    public int port() {
        return server.port();
    }

    /**
     * The underlying WireMock server, for tests that verify the requests it received
     * ({@code verify(...)}, {@code findAll(...)}) or add stubs of their own, e.g. to simulate a 429.
     */
    public WireMockServer wireMock() {
        return server;
    }

    /** Stops the server and removes the temporary copy of the mappings. */
    @Override
    public void close() {
        server.stop();
        files.delete();
    }

    /**
     * Runs the simulator standalone until the process is killed. The port comes from the first
     * argument, else the {@code SIMULATOR_PORT} environment variable, else {@value #DEFAULT_PORT}.
     */
    public static void main(String[] args) {
        int port = SimulatorPort.resolve(args, System.getenv("SIMULATOR_PORT"));
        OfflineSimulator simulator = start(port);
        Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "openai-simulator-shutdown"));
        // Jetty's threads are not daemons, so the JVM stays up after main returns.
        System.out.println("Offline OpenAI simulator listening on " + simulator.baseUrl() + "/v1");
    }
}
