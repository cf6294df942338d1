package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;

/**
 * What one governed code-running response costs in round trips to PostgreSQL and Redis, the whole pipeline on
 * (auth, rate limits, the ownership check of a {@code file_ids} reference, turn reservation, spend check, the
 * audit of the executed block, ownership records, charges). Statements and commits are counted by a wrapper
 * around the gateway's own {@link DataSource}; Redis commands by {@code MONITOR}, keeping only this gateway's
 * database index (other tests share the server) and leaving out the commands a script runs inside Redis.
 *
 * <p>The bounds are today's counts, so a change that adds a round trip fails here; issue 18 asks for at
 * most one commit per code-running response and at most two Redis round trips per request.
 */
class RoundTripsPerRequestTest extends GatewayIntegrationTest {

    private static final String SCHEMA = "round_trips_test";
    private static final int REDIS_DB = 12;
    private static final JdbcCounts jdbc = new JdbcCounts();

    private RedisMonitor redis;

    @DynamicPropertySource
    static void redisAndPostgres(DynamicPropertyRegistry registry) throws SQLException {
        try (Connection connection = DriverManager.getConnection(LocalPostgres.URL, "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            statement.execute("CREATE SCHEMA " + SCHEMA);
        }
        registry.add("spring.datasource.url", () -> LocalPostgres.URL + "?currentSchema=" + SCHEMA);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        registry.add("spring.flyway.schemas", () -> SCHEMA);
        registry.add("gateway.state.backend", () -> "redis");
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> "6379");
        registry.add("spring.data.redis.database", () -> Integer.toString(REDIS_DB));
    }

    @TestConfiguration
    static class CountingDataSource {

        @Bean
        static BeanPostProcessor countStatements() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    return bean instanceof DataSource dataSource ? jdbc.wrap(dataSource) : bean;
                }
            };
        }
    }

    @BeforeEach
    void watchRedis() throws IOException {
        redis = new RedisMonitor(REDIS_DB);
    }

    @AfterEach
    void stopWatching() throws IOException {
        redis.close();
    }

    @Test
    void shouldCountTheRoundTripsOfOneCodeRunningResponse() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        // Twice before counting, so one-time work (the first bucket, the first charge of the day) is not counted.
        for (int i = 0; i < 2; i++) {
            assertThat(codeRunningResponse(file).statusCode()).isEqualTo(200);
        }

        redis.clear();
        jdbc.clear();
        HttpResponse<String> answer = codeRunningResponse(file);
        List<String> redisCommands = redis.commandsUntilQuiet();
        Counts counted = jdbc.counts();

        assertThat(answer.statusCode()).isEqualTo(200);
        System.out.println("TMPDEBUG SQL:\n  " + String.join("\n  ", counted.sql()));
        System.out.println("TMPDEBUG REDIS:\n  " + String.join("\n  ", redisCommands));
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(counted.statements()).as("SQL statements: %s", counted.sql()).isEqualTo(12);
            soft.assertThat(counted.commits()).as("commits: %s", counted.sql()).isEqualTo(5);
            soft.assertThat(redisCommands).as("Redis commands").hasSize(9);
        });
    }

    private HttpResponse<String> codeRunningResponse(String file) throws Exception {
        String response = unique("resp_");
        String answer = completedResponse(response, unique("cntr_"))
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_"))
                .replace("msg_68a93abc0f7c81a3b2e1d0c9f8e7d6c5", unique("msg_"));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(answer)));
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot the revenue","tools":[{"type":"code_interpreter",
                         "container":{"type":"auto","file_ids":["%s"]}}]}""".formatted(file))), "/v1/responses");
    }

    /** Statements and commits seen by the gateway's connections, with the SQL of each, in order. */
    record Counts(int statements, int commits, List<String> sql) {
    }

    /** Wraps a {@link DataSource} so every statement executed and every commit (explicit or auto) is counted. */
    static final class JdbcCounts {

        private static final Set<String> EXECUTES = Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate",
                "executeBatch", "executeLargeBatch");

        private final AtomicInteger statements = new AtomicInteger();
        private final AtomicInteger commits = new AtomicInteger();
        private final Queue<String> sql = new ConcurrentLinkedQueue<>();

        void clear() {
            statements.set(0);
            commits.set(0);
            sql.clear();
        }

        Counts counts() {
            return new Counts(statements.get(), commits.get(), List.copyOf(sql));
        }

        DataSource wrap(DataSource dataSource) {
            return proxy(DataSource.class, dataSource, (method, args, call) ->
                    call.proceed() instanceof Connection connection ? connection(connection) : call.result());
        }

        private Connection connection(Connection connection) {
            return proxy(Connection.class, connection, (method, args, call) -> {
                if (method.getName().equals("commit")) {
                    commits.incrementAndGet();
                    sql.add("COMMIT");
                }
                Object result = call.proceed();
                if (result instanceof PreparedStatement prepared && method.getName().equals("prepareStatement")) {
                    return statement(PreparedStatement.class, prepared, connection, (String) args[0]);
                }
                if (result instanceof Statement plain && method.getName().equals("createStatement")) {
                    return statement(Statement.class, plain, connection, null);
                }
                return result;
            });
        }

        private <S extends Statement> S statement(Class<S> type, S statement, Connection connection, String prepared) {
            return proxy(type, statement, (method, args, call) -> {
                if (EXECUTES.contains(method.getName())) {
                    statements.incrementAndGet();
                    String text = (prepared != null ? prepared : String.valueOf(args[0])).replaceAll("\\s+", " ").strip();
                    sql.add(text);
                    // Outside a transaction a statement that writes commits by itself; a lone read commits nothing.
                    if (connection.getAutoCommit() && !text.startsWith("SELECT")) {
                        commits.incrementAndGet();
                    }
                }
                return call.proceed();
            });
        }

        /** A call of a wrapped JDBC object: {@link #proceed()} makes it (once), {@link #result()} is what it returned. */
        private interface Call {

            Object proceed() throws Throwable;

            Object result();
        }

        private interface Around {

            Object invoke(Method method, Object[] args, Call call) throws Throwable;
        }

        private static <T> T proxy(Class<T> type, T target, Around around) {
            InvocationHandler handler = (self, method, args) -> {
                Object[] result = new Object[1];
                Call call = new Call() {
                    @Override
                    public Object proceed() throws Throwable {
                        try {
                            result[0] = method.invoke(target, args);
                            return result[0];
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }

                    @Override
                    public Object result() {
                        return result[0];
                    }
                };
                return around.invoke(method, args, call);
            };
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
        }
    }

    /**
     * The commands clients send to one database index of the local Redis, read from {@code MONITOR}. A script's own
     * commands (shown as coming from {@code lua}) are not round trips and are left out.
     */
    static final class RedisMonitor implements AutoCloseable {

        private final Socket socket;
        private final Queue<String> commands = new ConcurrentLinkedQueue<>();
        private final Thread reader;

        RedisMonitor(int database) throws IOException {
            socket = new Socket("127.0.0.1", 6379);
            OutputStream out = socket.getOutputStream();
            out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            if (!"+OK".equals(in.readLine())) {
                throw new IOException("Redis refused MONITOR");
            }
            String mine = "[" + database + " ";
            reader = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        int at = line.indexOf('[');
                        if (at >= 0 && line.startsWith(mine, at) && !line.startsWith("lua]", line.indexOf(' ', at) + 1)) {
                            commands.add(line.substring(line.indexOf(']', at) + 2));
                        }
                    }
                } catch (IOException closed) {
                    // close() ends the monitor
                }
            });
        }

        void clear() {
            commands.clear();
        }

        /** The commands seen so far, once none has arrived for a while (MONITOR lags the commands a little). */
        List<String> commandsUntilQuiet() throws InterruptedException {
            int seen = -1;
            while (seen != commands.size()) {
                seen = commands.size();
                Thread.sleep(300);
            }
            return List.copyOf(commands);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
