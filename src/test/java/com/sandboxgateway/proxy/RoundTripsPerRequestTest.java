package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
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
 * around the gateway's own {@link DataSource}, the waits for PostgreSQL's answer by the {@code Sync} messages its
 * connections send through a relay ({@link PostgresWaits}); Redis commands by {@code MONITOR}, keeping only this gateway's
 * database index (other tests share the server) and leaving out the commands a script runs inside Redis. The
 * commands before the upstream answers are told from those after it by a marker the stubbed upstream sends to
 * Redis before it answers (the gateway is waiting for that answer, so nothing of it can come in between).
 *
 * <p>Issue 18 asks for at most one commit per code-running response and at most two Redis round trips per
 * request: one admission script before the upstream is called (on every route), one settling script after it
 * answers, and the answer's writes in one transaction.
 */
class RoundTripsPerRequestTest extends GatewayIntegrationTest {

    private static final String SCHEMA = "round_trips_test";
    private static final int REDIS_DB = 12;
    private static final JdbcCounts jdbc = new JdbcCounts();
    private static final PostgresWaits postgres = relayTo(LocalPostgres.PORT);
    /** Runs of a statement after which pgjdbc has prepared it on the server (its {@code prepareThreshold} is 5). */
    private static final int PREPARED_BEFORE = 5;
    /** What the stubbed upstream echoes on Redis before it answers, while {@link #markUpstreamAnswers} is set. */
    private static final String UPSTREAM_ANSWERS = RedisMonitor.MARKER + "upstream-answers";
    private static final AtomicBoolean markUpstreamAnswers = new AtomicBoolean();

    private RedisMonitor redis;

    @BeforeAll
    static void markWhereTheUpstreamAnswers() {
        // The server is shared by every test class of the JVM: the listener only acts while this test arms it.
        openAi.addMockServiceRequestListener((request, response) -> {
            if (markUpstreamAnswers.get() && request.getUrl().startsWith("/v1/responses")) {
                RedisMonitor.echo(UPSTREAM_ANSWERS);
            }
        });
    }

    @DynamicPropertySource
    static void redisAndPostgres(DynamicPropertyRegistry registry) throws SQLException {
        try (Connection connection = DriverManager.getConnection(LocalPostgres.URL, "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            statement.execute("CREATE SCHEMA " + SCHEMA);
        }
        // In the clear, so the relay can read the messages.
        registry.add("spring.datasource.url", () -> LocalPostgres.url(postgres.port()) + "?sslmode=disable&currentSchema=" + SCHEMA);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        registry.add("spring.flyway.schemas", () -> SCHEMA);
        registry.add("gateway.state.backend", () -> "redis");
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> "6379");
        registry.add("spring.data.redis.database", () -> Integer.toString(REDIS_DB));
    }

    private static PostgresWaits relayTo(int port) {
        try {
            return new PostgresWaits(port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void closeRelay() throws IOException {
        postgres.close();
    }

    @TestConfiguration
    static class CountingDataSource {

        @Bean
        static BeanPostProcessor countStatements() {
            return jdbc.counting();
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
    void shouldSettleACodeRunningResponseInOneCommitAndOneRedisRoundTrip() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        // Before counting, so one-time work (the first bucket, the first charge of the day) is not counted.
        for (int i = 0; i < PREPARED_BEFORE; i++) {
            assertThat(codeRunningResponse(ALICE_KEY, file).statusCode()).isEqualTo(200);
        }

        Counted counted = counted(() -> codeRunningResponse(ALICE_KEY, file));

        assertThat(counted.status()).isEqualTo(200);
        SoftAssertions.assertSoftly(soft -> {
            // The ownership check of the file id reads nothing: its live record was read by the turns before. Then one
            // transaction of one statement: the turn charge, two spend charges (tokens and container), owner rows, and
            // the head's move, which locks the chain head and carries the audit record and its tree nodes, with the
            // commit after it in the same round trip.
            soft.assertThat(counted.jdbc().sql()).as("SQL").singleElement().satisfies(statement ->
                    assertThat(statement).startsWith("WITH i0 AS (INSERT INTO turn_charge ")
                            .contains("i1 AS (INSERT INTO spend_charge (charge_id, team, user_name, charge_day, usd_micros, created_at) VALUES "
                                    + "(?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING charge_id)",
                                    "i2 AS (INSERT INTO owned_object ",
                                    "chain_lock AS (SELECT id FROM audit_chain WHERE id = 1 AND last_seq = ? FOR UPDATE)",
                                    "records AS (INSERT INTO audit_record ", "nodes0 AS (INSERT INTO audit_tree_node ",
                                    "head AS (UPDATE audit_chain SET ")
                        .endsWith("; COMMIT"));
            soft.assertThat(counted.jdbc().statements()).as("SQL statements: %s", counted.jdbc().sql()).isEqualTo(1);
            soft.assertThat(counted.jdbc().commits()).as("commits: %s", counted.jdbc().sql()).isEqualTo(1);
            // The transaction's BEGIN, its statement and its commit in one round trip.
            soft.assertThat(counted.postgresWaits()).as("waits for PostgreSQL's answer").isEqualTo(1);
            // After it: one script moving every counter the answer touched (turns settled, the response's and the
            // container's spend).
            admittedAndSettledOnce(soft, counted);
        });
    }

    @Test
    void shouldCommitAStreamedCodeRunningResponseThreeTimesAndSettleItsCountersInOneRedisRoundTrip() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        for (int i = 0; i < PREPARED_BEFORE; i++) {
            assertThat(streamedCodeRunningResponse(ALICE_KEY, file).statusCode()).isEqualTo(200);
        }

        Counted counted = counted(() -> streamedCodeRunningResponse(ALICE_KEY, file));

        assertThat(counted.status()).isEqualTo(200);
        SoftAssertions.assertSoftly(soft -> {
            // Its events arrive apart, and each is flushed on its own. One commit once the client has response.created
            // (its owner row: the client may retrieve the response at once), one before the executed call is relayed
            // whole (its audit record, with the owner rows of the call and its container), one as the stream ends (the
            // charges, with the owner rows of the message and the file it cites): each one statement with its commit.
            soft.assertThat(counted.jdbc().commits()).as("commits: %s", counted.jdbc().sql()).isEqualTo(3);
            soft.assertThat(counted.jdbc().statements()).as("SQL statements: %s", counted.jdbc().sql()).isEqualTo(3);
            soft.assertThat(counted.postgresWaits()).as("waits for PostgreSQL's answer").isEqualTo(3);
            // The counters move once, as the stream ends (turns settled, the response's and the container's spend).
            admittedAndSettledOnce(soft, counted);
        });
    }

    @Test
    void shouldSettleAResponseThatRanNoCodeInOneCommitAndOneRedisRoundTrip() throws Exception {
        // Often enough that pgjdbc prepares the statement on the server: only then does it know the columns of its
        // answer, and, where it cannot bound their size, it waits for the BEGIN's answer before sending it.
        for (int i = 0; i < PREPARED_BEFORE; i++) {
            assertThat(answerWithoutCode().statusCode()).isEqualTo(200);
        }

        Counted counted = counted(this::answerWithoutCode);

        assertThat(counted.status()).isEqualTo(200);
        SoftAssertions.assertSoftly(soft -> {
            // What the contract needs durable before the client sees the answer: the owner rows of the response and its
            // message, the turn charge (0 turns: it maps the response to its session for a later previous_response_id),
            // the token spend, all in one statement, which commits. No audit record, so the chain is not locked.
            soft.assertThat(counted.jdbc().sql()).as("SQL").containsExactly(
                    "WITH i0 AS (INSERT INTO turn_charge (charge_id, user_name, team, session_id, charge_day, reserved, turns, "
                            + "created_at, settled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING charge_id), "
                            + "i1 AS (INSERT INTO spend_charge (charge_id, team, user_name, charge_day, usd_micros, created_at) VALUES "
                            + "(?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING charge_id), "
                            + "i2 AS (INSERT INTO owned_object (id, kind, owner_user, owner_team, parent_id, created_at, expires_at) VALUES "
                            + "(?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id) "
                            + "SELECT 0, array_position(CAST(? AS VARCHAR[]), CAST(charge_id AS VARCHAR)) FROM i0 "
                            + "UNION ALL SELECT 1, array_position(CAST(? AS VARCHAR[]), CAST(charge_id AS VARCHAR)) FROM i1 "
                            + "UNION ALL SELECT 2, array_position(CAST(? AS VARCHAR[]), CAST(id AS VARCHAR)) FROM i2; COMMIT");
            // The BEGIN, the statement and its commit in one round trip: the statement answers in fixed-size columns,
            // so pgjdbc does not wait for the BEGIN's answer before sending it.
            soft.assertThat(counted.postgresWaits()).as("waits for PostgreSQL's answer").isEqualTo(1);
            // The spend moves; the turns do not (none reserved, none ran).
            soft.assertThat(counted.afterUpstream()).as("Redis commands after the upstream answered").hasSize(1);
        });
    }

    /**
     * One admission script before the upstream answered (the user's and the team's tokens, the spend check, the turn
     * reservation), and one script after it, moving every counter the answer touched.
     */
    private static void admittedAndSettledOnce(SoftAssertions soft, Counted counted) {
        // hasSize, not singleElement: under soft assertions a failed singleElement gives null, and the report is lost.
        soft.assertThat(counted.beforeUpstream()).as("Redis commands before the upstream answered").hasSize(1)
                .allSatisfy(RoundTripsPerRequestTest::isAdmission);
        soft.assertThat(counted.afterUpstream()).as("Redis commands after the upstream answered").hasSize(1)
                .allSatisfy(command -> assertThat(command).startsWith("\"EVALSHA\"").doesNotContain("bucket:"));
    }

    /** What one request cost, its Redis commands split where the upstream answered. */
    private record Counted(int status, JdbcCounts.Counts jdbc, int postgresWaits, List<String> beforeUpstream,
                           List<String> afterUpstream) {
    }

    private Counted counted(Request request) throws Exception {
        redis.clear();
        jdbc.clear();
        postgres.clear();
        markUpstreamAnswers.set(true);
        HttpResponse<String> answer;
        try {
            answer = request.send();
        } finally {
            markUpstreamAnswers.set(false);
        }
        String answered = "\"ECHO\" \"" + UPSTREAM_ANSWERS + "\"";
        List<String> commands = redis.commandsUntilQuietAfter(answered);
        int marker = commands.indexOf(answered);
        assertThat(marker).as("the upstream's marker among %s", commands).isNotNegative();
        return new Counted(answer.statusCode(), jdbc.counts(), postgres.syncs(), commands.subList(0, marker),
                commands.subList(marker + 1, commands.size()));
    }

    @FunctionalInterface
    private interface Request {

        HttpResponse<String> send() throws Exception;
    }

    private HttpResponse<String> answerWithoutCode() throws Exception {
        String answer = """
                {"id":"%s","object":"response","created_at":1756000000,"status":"completed","model":"gpt-4.1",
                 "output":[{"type":"message","id":"%s","status":"completed","role":"assistant",
                  "content":[{"type":"output_text","text":"Hello.","annotations":[]}]}],
                 "usage":{"input_tokens":12,"output_tokens":3,"total_tokens":15}}""".formatted(unique("resp_"), unique("msg_"));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(answer)));
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4.1\",\"input\":\"say hello\"}")), "/v1/responses");
    }

    @Test
    void shouldAdmitARequestThatReservesNoTurnsInOneRoundTrip() throws Exception {
        openAi.stubFor(get(urlPathEqualTo("/v1/files")).willReturn(okJson("""
                {"object":"list","data":[],"first_id":null,"last_id":null,"has_more":false}""")));
        assertThat(fileList().statusCode()).isEqualTo(200);

        redis.clear();
        HttpResponse<String> answer = fileList();
        List<String> redisCommands = redis.commandsUntilQuiet();

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Gateway-Turns-Remaining")).as("the turns left, read by the admission").isPresent();
        assertThat(redisCommands).as("Redis commands").singleElement().satisfies(RoundTripsPerRequestTest::isAdmission);
    }

    /** The admission script: it takes the user's token (a bucket key) and reads the user's turns of the day. */
    private static void isAdmission(String command) {
        assertThat(command).startsWith("\"EVALSHA\"").contains("\"bucket:u:alice:", "\"turns:{alice}:d:");
    }

    private HttpResponse<String> fileList() throws Exception {
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).GET(), "/v1/files");
    }


    /**
     * The commands clients send to one database index of the local Redis, read from {@code MONITOR}. A script's own
     * commands (shown as coming from {@code lua}) are not round trips and are left out.
     */
    static final class RedisMonitor implements AutoCloseable {

        /** How a marker {@link #echo} sends begins: the monitor keeps markers whatever their database index. */
        static final String MARKER = "round-trips-marker:";

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
                        String command = at < 0 ? "" : line.substring(line.indexOf(']', at) + 2);
                        if (at >= 0 && line.startsWith(mine, at) && !line.startsWith("lua]", line.indexOf(' ', at) + 1)
                                || command.startsWith("\"ECHO\" \"" + MARKER)) {
                            commands.add(command);
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

        /** Sends {@code ECHO marker} (a {@link #MARKER} and a word) and waits for Redis to answer it. */
        static void echo(String marker) {
            try (Socket socket = new Socket("127.0.0.1", 6379)) {
                OutputStream out = socket.getOutputStream();
                out.write(("ECHO " + marker + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                for (String line = in.readLine(); !marker.equals(line); line = in.readLine()) {
                    if (line == null) {
                        throw new IOException("Redis did not answer the ECHO");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
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

        /**
         * As {@link #commandsUntilQuiet}, once some command follows {@code marker} (or after 10 s): a stream's counters
         * settle after its last event is flushed, which the client may have read already.
         */
        List<String> commandsUntilQuietAfter(String marker) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            List<String> seen = commandsUntilQuiet();
            while (!followed(seen, marker) && System.nanoTime() < deadline) {
                seen = commandsUntilQuiet();
            }
            return seen;
        }

        private static boolean followed(List<String> commands, String marker) {
            int at = commands.indexOf(marker);
            return at >= 0 && at < commands.size() - 1;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
