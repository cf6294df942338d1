import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.sun.management.OperatingSystemMXBean;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;

/**
 * What Lettuce's hand-offs cost a Redis command: one {@code PING} at a time from a virtual thread, through Lettuce's
 * synchronous API as the gateway calls it (the command written and its answer read by Lettuce's event loop, the
 * caller woken), and written and read by the virtual thread itself on a socket of its own. Three rounds of each; it
 * prints the time and the process's CPU per command.
 *
 * <p>Usage, from the repository's root, with Lettuce and Netty from the gateway's fat jar and Redis on 127.0.0.1:6379:
 * {@code mkdir -p /tmp/redis-libs && unzip -q -o -j target/sandbox-gateway-*.jar 'BOOT-INF/lib/lettuce-core*'
 * 'BOOT-INF/lib/netty-*' 'BOOT-INF/lib/reactor-core*' 'BOOT-INF/lib/reactive-streams*' -d /tmp/redis-libs && taskset -c 0
 * java -cp '/tmp/redis-libs/*' bench/RedisHops.java <commands>}.
 */
public final class RedisHops {

    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] args) throws Exception {
        int commands = Integer.parseInt(args[0]);
        RedisClient client = RedisClient.create(RedisURI.create("redis://127.0.0.1:6379"));
        client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(Duration.ofMillis(250))).build());
        try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
             Socket socket = new Socket("127.0.0.1", 6379)) {
            RedisCommands<String, String> lettuce = connection.sync();
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int round = 0; round < 3; round++) {
                measure("Lettuce, synchronous", commands, lettuce::ping);
                measure("the thread's own socket", commands, () -> ping(out, in));
            }
        } finally {
            client.shutdown();
        }
    }

    private static void ping(OutputStream out, InputStream in) {
        try {
            out.write(PING);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new EOFException("Redis closed the connection");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A tenth of {@code commands} to warm up, then {@code commands} timed, on one virtual thread. */
    private static void measure(String name, int commands, Runnable command) throws InterruptedException {
        long[] nanos = new long[2];
        Thread.ofVirtual().start(() -> {
            for (int i = 0; i < commands / 10; i++) {
                command.run();
            }
            long cpu = OS.getProcessCpuTime();
            long started = System.nanoTime();
            for (int i = 0; i < commands; i++) {
                command.run();
            }
            nanos[0] = System.nanoTime() - started;
            nanos[1] = OS.getProcessCpuTime() - cpu;
        }).join();
        System.out.printf("%-24s %6.1f us per command, process CPU %6.1f us%n", name, nanos[0] / 1e3 / commands,
                nanos[1] / 1e3 / commands);
    }
}
