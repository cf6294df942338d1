package com.sandboxgateway.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An offline stand-in for the OpenAI API surface that Code Interpreter uses (Responses, streaming,
 * Files, Containers, container files, Conversations, Skills), bound to 127.0.0.1: a small stateful fake of
 * OpenAI's storage and a {@link PretendModel} that writes the code a prompt asks for.
 *
 * <p>It lets the gateway, its tests and a newcomer run the whole flow without an API key. Point an
 * OpenAI client at {@code baseUrl() + "/v1"}; any {@code Authorization: Bearer ...} key is accepted.
 * What is uploaded is kept (small files in memory, large ones in a temporary file), so lists, retrieve,
 * content and deletes agree; timestamps are the current time. Ids it does not have answer 404 as OpenAI
 * does, and routes it does not imitate answer 404 {@code unknown_url}.
 */
public final class OfflineSimulator implements AutoCloseable {

    /** Port used by {@link #main} when neither an argument nor {@code SIMULATOR_PORT} names one. */
    static final int DEFAULT_PORT = 8089;

    private static final String LOOPBACK = "127.0.0.1";
    /** Between two streamed events: a stream of 18 events takes about a third of a second, as a short one from OpenAI. */
    private static final Duration EVENT_PAUSE = Duration.ofMillis(15);

    private final SimulatorServer server;
    private final Storage storage;

    private OfflineSimulator(SimulatorServer server, Storage storage) {
        this.server = server;
        this.storage = storage;
    }

    /**
     * Starts a simulator on {@code port} (0 picks a free port) and returns once it accepts requests.
     *
     * @throws IllegalArgumentException if the port is outside 0..65535
     * @throws IllegalStateException if the port cannot be bound
     */
    public static OfflineSimulator start(int port) {
        return start(LOOPBACK, port);
    }

    private static OfflineSimulator start(String bind, int port) {
        SimulatorPort.requireValid(port);
        Storage storage;
        try {
            storage = new Storage(Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException("The OpenAI simulator could not create its temporary directory", e);
        }
        ContainersApi containers = new ContainersApi(storage);
        List<SimulatorServer.Route> routes = new ArrayList<>();
        routes.addAll(new ResponsesApi(storage, containers, new ResponseEvents(EVENT_PAUSE)).routes());
        routes.addAll(new FilesApi(storage).routes());
        routes.addAll(containers.routes());
        routes.addAll(new ConversationsApi(storage).routes());
        routes.addAll(new SkillsApi(storage).routes());
        try {
            return new OfflineSimulator(SimulatorServer.start(bind, port, routes), storage);
        } catch (IOException e) {
            storage.close();
            throw new IllegalStateException("OpenAI simulator could not start on " + bind + ":" + port
                    + " (" + e.getMessage() + "); pick another port (0 = any free port)", e);
        }
    }

    /** The root URL, without the {@code /v1} suffix, e.g. {@code http://127.0.0.1:8089}. */
    public String baseUrl() {
        return "http://" + LOOPBACK + ":" + port();
    }

    /** The port actually bound (useful after {@code start(0)}). */
    public int port() {
        return server.port();
    }

    /** Stops the server and removes what it kept on disk. */
    @Override
    public void close() {
        server.close();
        storage.close();
    }

    /**
     * Runs the simulator standalone until the process is killed. The port comes from the first
     * argument, else the {@code SIMULATOR_PORT} environment variable, else {@value #DEFAULT_PORT};
     * {@code SIMULATOR_BIND} may widen the address from 127.0.0.1 (e.g. {@code 0.0.0.0} in a container).
     */
    public static void main(String[] args) throws InterruptedException {
        int port = SimulatorPort.resolve(args, System.getenv("SIMULATOR_PORT"));
        String bind = System.getenv("SIMULATOR_BIND");
        OfflineSimulator simulator = start(bind == null || bind.isBlank() ? LOOPBACK : bind.strip(), port);
        Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "openai-simulator-shutdown"));
        System.out.println("Offline OpenAI simulator listening on " + simulator.baseUrl() + "/v1");
        // The JDK server's threads are virtual, so they do not keep the JVM up: this thread does.
        Thread.currentThread().join();
    }
}
