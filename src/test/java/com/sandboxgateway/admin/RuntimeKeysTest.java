package com.sandboxgateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.sandboxgateway.SandboxGatewayApplication;
import com.sandboxgateway.api.Sha256;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.support.OpenAiStub;
import com.sandboxgateway.support.ScriptedUpstream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keys issued at run time, across replicas sharing PostgreSQL: two on the Redis backend with a key cache
 * far longer than the test (so only pub/sub can tell them of a change) and one on the memory backend with
 * a one-second cache (so only its time-to-live can).
 */
class RuntimeKeysTest {

    private static final String SCHEMA = "gateway_keys_test";
    private static final String ADMIN_KEY = GatewayIntegrationTest.ADMIN_KEY;
    /** Authenticated, then refused by the ownership check: no upstream needed. */
    private static final String AUTHENTICATED_PATH = "/v1/containers/cntr_unknown/files";

    private final JsonMapper json = JsonMapper.builder().build();
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;
    private static ConfigurableApplicationContext memory;

    @BeforeAll
    static void startReplicas() throws Exception {
        try (Connection connection = DriverManager.getConnection(LocalPostgres.URL, "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
        first = gateway("redis", "10m");
        second = gateway("redis", "10m");
        memory = gateway("memory", "1s");
    }

    @AfterAll
    static void stopReplicas() {
        for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] {first, second, memory}) {
            if (context != null) {
                context.close();
            }
        }
    }

    @Test
    void shouldAcceptAKeyIssuedOnOneReplicaOnTheOthersAndStoreOnlyItsHash() throws Exception {
        JsonNode issued = issue(first, "{\"user\":\"kim\",\"team\":\"analytics\",\"expiresIn\":\"1h\"}");
        String key = issued.path("key").asString();
        String id = issued.path("id").asString();

        assertThat(key).startsWith("sk-gw-rt-").startsWith(issued.path("prefix").asString());
        assertThat(v1(second, key).statusCode()).isEqualTo(404);
        assertThat(v1(memory, key).statusCode()).isEqualTo(404);
        String listing = admin(second, "GET", "/actuator/keys", null).body();
        JsonNode listed = find(json.readTree(listing), id);
        assertThat(json.readTree(admin(first, "GET", "/actuator/keys/" + id, null).body()).path("team").asString()).isEqualTo("analytics");
        assertThat(listed.path("user").asString()).isEqualTo("kim");
        assertThat(listed.path("lastUsed").asString()).isNotEmpty();
        assertThat(listed.path("createdBy").asString()).isEqualTo("root");
        assertThat(json.readTree(admin(second, "GET", "/actuator/ratelimits/kim", null).body()).path("team").asString())
                .as("a run-time key's user has a bucket like any other").isEqualTo("analytics");
        assertThat(admin(second, "GET", "/actuator/ratelimits", null).body()).contains("\"kim\"");
        assertThat(listed.path("key").isNull()).isTrue();
        assertThat(listed.path("expires").asString()).isNotEmpty();
        assertThat(listing).doesNotContain(key).doesNotContain(Sha256.hex(key));
        assertThat(json.readTree(listing)).anySatisfy(configured -> {
            assertThat(configured.path("source").asString()).isEqualTo("config");
            assertThat(configured.path("readOnly").asBoolean()).isTrue();
            assertThat(configured.path("user").asString()).isEqualTo("root");
        });
        assertThat(storedColumns(id)).doesNotContain(key).contains(Sha256.hex(key));
        assertThat(admin(first, "GET", "/actuator/audit?kind=ADMIN_ACTION&limit=500", null).body())
                .contains("issue_key").contains(id).doesNotContain(key);
    }

    @Test
    void shouldRefuseARevokedKeyOnEveryReplicaWithinTheBound() throws Exception {
        JsonNode issued = issue(first, "{\"user\":\"lee\",\"team\":\"analytics\"}");
        String key = issued.path("key").asString();
        String id = issued.path("id").asString();
        assertThat(v1(second, key).statusCode()).as("cached on the second replica").isEqualTo(404);
        assertThat(v1(memory, key).statusCode()).as("cached on the memory replica").isEqualTo(404);

        HttpResponse<String> revoked = admin(first, "DELETE", "/actuator/keys/" + id, null);

        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(json.readTree(revoked.body()).path("revoked").asString()).isNotEmpty();
        HttpResponse<String> refused = v1(first, key);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).contains("invalid_api_key").contains("revoked").doesNotContain(key);
        // The second replica caches keys for ten minutes: only the pub/sub message can explain a refusal now.
        await().atMost(Duration.ofSeconds(10)).until(() -> v1(second, key).statusCode() == 401);
        // The memory replica hears nothing: its one-second cache is the bound.
        await().atMost(Duration.ofSeconds(10)).until(() -> v1(memory, key).statusCode() == 401);
        assertThat(admin(second, "GET", "/actuator/audit?kind=ADMIN_ACTION&limit=500", null).body())
                .contains("revoke_key").contains(id);
    }

    @Test
    void shouldAcceptTheReplacedKeyDuringItsGracePeriodOnly() throws Exception {
        JsonNode issued = issue(first, "{\"user\":\"max\",\"team\":\"finance\"}");
        String original = issued.path("key").asString();
        String id = issued.path("id").asString();
        assertThat(v1(second, original).statusCode()).isEqualTo(404);

        JsonNode rotated = json.readTree(admin(first, "POST", "/actuator/keys/" + id + "/rotate", "{\"grace\":\"1h\"}").body());
        String replacement = rotated.path("key").asString();

        assertThat(rotated.path("id").asString()).isEqualTo(id);
        assertThat(replacement).isNotEqualTo(original).startsWith("sk-gw-rt-");
        assertThat(rotated.path("previousValidUntil").asString()).isNotEmpty();
        assertThat(v1(second, replacement).statusCode()).isEqualTo(404);
        assertThat(v1(second, original).statusCode()).as("within the grace period").isEqualTo(404);

        JsonNode again = json.readTree(admin(first, "POST", "/actuator/keys/" + id + "/rotate", "{\"grace\":\"1ms\"}").body());
        String third = again.path("key").asString();
        Thread.sleep(5);

        assertThat(v1(first, third).statusCode()).isEqualTo(404);
        assertThat(v1(first, original).statusCode()).as("two rotations ago").isEqualTo(401);
        assertThat(v1(first, replacement).statusCode()).as("its grace period is over").isEqualTo(401);
        await().atMost(Duration.ofSeconds(10)).until(() -> v1(second, original).statusCode() == 401);
        assertThat(v1(second, third).statusCode()).isEqualTo(404);
        assertThat(admin(first, "POST", "/actuator/keys/" + id + "/rotate", "{\"grace\":\"soon\"}").statusCode()).isEqualTo(400);
        assertThat(admin(first, "GET", "/actuator/audit?kind=ADMIN_ACTION&limit=500", null).body()).contains("rotate_key");
    }

    @Test
    void shouldHoldAKeyToLimitsThatOnlyNarrowItsTeamsPolicy() throws Exception {
        String widening = "{\"user\":\"ned\",\"team\":\"finance\",\"limits\":{\"tools\":[\"function\"]}}";
        assertThat(admin(first, "POST", "/actuator/keys", widening).body()).contains("may only name tools team finance may use");
        assertThat(admin(first, "POST", "/actuator/keys", "{\"user\":\"ned\",\"team\":\"finance\",\"limits\":{\"rpm\":5}}")
                .body()).as("a misspelt limit is no limit").contains("with no other fields");
        JsonNode issued = issue(first, "{\"user\":\"ned\",\"team\":\"analytics\",\"roles\":[\"user\"],"
                + "\"limits\":{\"requestsPerMinute\":2,\"tools\":[\"code_interpreter\"]}}");
        String key = issued.path("key").asString();

        HttpResponse<String> tool = post(first, "/v1/responses", key,
                "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"tools\":[{\"type\":\"function\",\"name\":\"f\",\"parameters\":{}}]}");
        assertThat(tool.statusCode()).isEqualTo(403);
        assertThat(tool.body()).contains("tool_not_allowed");
        assertThat(v1(second, key).statusCode()).isEqualTo(404);
        HttpResponse<String> limited = v1(second, key);

        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.body()).contains("your key's limit of 2 requests per minute");
        assertThat(v1(second, GatewayIntegrationTest.CAROL_KEY).statusCode()).as("carol's own limit is untouched").isEqualTo(404);

        JsonNode raised = json.readTree(admin(first, "POST", "/actuator/keys/" + issued.path("id").asString() + "/limits",
                "{\"requestsPerMinute\":100}").body());
        assertThat(raised.path("limits").path("requestsPerMinute").asInt()).isEqualTo(100);
        assertThat(raised.path("limits").path("tools").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> v1(second, key).statusCode() == 404);
        assertThat(admin(first, "GET", "/actuator/audit?kind=ADMIN_ACTION&limit=500", null).body()).contains("limit_key");
    }

    @Test
    void shouldLowerTheTurnsOfASessionToTheKeysLimit() throws Exception {
        AtomicReference<String> sent = new AtomicReference<>();
        String responseId = "resp_" + UUID.randomUUID().toString().replace("-", "");
        ScriptedUpstream.answerWith(exchange -> {
            sent.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = OpenAiStub.example("responses.create.response.completed.json")
                    .replace(GatewayIntegrationTest.EXAMPLE_RESPONSE_ID, responseId).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        String key = issue(first, "{\"user\":\"oli\",\"team\":\"analytics\",\"limits\":{\"turnsPerSession\":3}}")
                .path("key").asString();

        HttpResponse<String> answer = post(first, "/v1/responses", key, "{\"model\":\"gpt-4.1\",\"input\":\"plot\","
                + "\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(json.readTree(sent.get()).path("max_tool_calls").asInt()).as("the team allows 1000").isEqualTo(3);
    }

    @Test
    void shouldRefuseAKeyOnceItExpired() throws Exception {
        String key = issue(first, "{\"user\":\"pat\",\"team\":\"analytics\",\"expiresIn\":\"1ms\"}").path("key").asString();
        Thread.sleep(5);

        HttpResponse<String> refused = v1(second, key);

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).contains("no longer accepted");
    }

    @Test
    void shouldLetAnIssuedAdminKeyUseTheAdminEndpointsAndAUserKeyNot() throws Exception {
        String admin = issue(first, "{\"user\":\"quinn\",\"team\":\"platform\",\"roles\":[\"user\",\"admin\"]}").path("key").asString();
        String user = issue(first, "{\"user\":\"rae\",\"team\":\"platform\"}").path("key").asString();

        assertThat(send(HttpRequest.newBuilder(uri(second, "local.management.port", "/actuator/policies")).GET(), admin)
                .statusCode()).isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri(second, "local.management.port", "/actuator/policies")).GET(), user)
                .statusCode()).isEqualTo(403);
    }

    @Test
    void shouldKeepConfiguredKeysReadOnlyAndAnswerOnlyAdmins() throws Exception {
        JsonNode listing = json.readTree(admin(first, "GET", "/actuator/keys", null).body());
        String configured = null;
        for (JsonNode key : listing) {
            if (key.path("source").asString().equals("config")) {
                configured = key.path("id").asString();
            }
        }

        assertThat(admin(first, "DELETE", "/actuator/keys/" + configured, null).body()).contains("read-only");
        assertThat(admin(first, "POST", "/actuator/keys/" + configured + "/rotate", null).body()).contains("read-only");
        assertThat(json.readTree(admin(first, "GET", "/actuator/keys/" + configured, null).body()).path("readOnly").asBoolean())
                .isTrue();
        assertThat(admin(first, "GET", "/actuator/keys/key_0000000000000000", null).statusCode()).isEqualTo(404);
        assertThat(admin(first, "DELETE", "/actuator/keys/key_0000000000000000", null).statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(uri(first, "local.management.port", "/actuator/keys")).GET(),
                GatewayIntegrationTest.BOB_KEY).statusCode()).isEqualTo(403);
        assertThat(admin(first, "POST", "/actuator/keys", "{\"user\":\"x\",\"team\":\"analytics\",\"roles\":[\"root\"]}")
                .body()).contains("roles may be 'user' and 'admin'");
        assertThat(send(HttpRequest.newBuilder(uri(first, "local.server.port", "/actuator/keys")).GET(), ADMIN_KEY).statusCode())
                .as("never on the public port").isEqualTo(404);
    }

    private static ConfigurableApplicationContext gateway(String backend, String cacheTtl) {
        return new SpringApplicationBuilder(SandboxGatewayApplication.class).profiles("test", "postgres").run(
                "--server.port=0",
                "--gateway.upstream.base-url=" + ScriptedUpstream.baseUrl(),
                // Three replicas on a busy machine: the test profile's 3 s would make a slow answer a timeout.
                "--gateway.upstream.read-timeout=30s",
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + SCHEMA,
                "--spring.flyway.schemas=" + SCHEMA,
                "--gateway.state.backend=" + backend,
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=6379",
                "--gateway.auth.runtime-keys.cache-ttl=" + cacheTtl);
    }

    private JsonNode issue(ConfigurableApplicationContext gateway, String body) throws Exception {
        HttpResponse<String> answer = admin(gateway, "POST", "/actuator/keys", body);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json.readTree(answer.body());
    }

    private static JsonNode find(JsonNode listing, String id) {
        for (JsonNode key : listing) {
            if (key.path("id").asString().equals(id)) {
                return key;
            }
        }
        throw new AssertionError("key " + id + " is not listed");
    }

    /** Every column of the key's row, as text. */
    private static String storedColumns(String id) throws Exception {
        try (Connection connection = DriverManager.getConnection(LocalPostgres.URL, "postgres", "");
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT * FROM " + SCHEMA + ".gateway_key WHERE key_id = '" + id + "'")) {
            StringBuilder columns = new StringBuilder();
            while (row.next()) {
                for (int i = 1; i <= row.getMetaData().getColumnCount(); i++) {
                    columns.append(row.getString(i)).append('|');
                }
            }
            return columns.toString();
        }
    }

    private static HttpResponse<String> v1(ConfigurableApplicationContext gateway, String key) throws Exception {
        return send(HttpRequest.newBuilder(uri(gateway, "local.server.port", AUTHENTICATED_PATH)).GET(), key);
    }

    private static HttpResponse<String> post(ConfigurableApplicationContext gateway, String path, String key, String body)
            throws Exception {
        return send(HttpRequest.newBuilder(uri(gateway, "local.server.port", path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), key);
    }

    private static HttpResponse<String> admin(ConfigurableApplicationContext gateway, String method, String path, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(gateway, "local.management.port", path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return send(request, ADMIN_KEY);
    }

    private static URI uri(ConfigurableApplicationContext gateway, String portProperty, String path) {
        return URI.create("http://127.0.0.1:" + gateway.getEnvironment().getProperty(portProperty) + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request, String key) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
