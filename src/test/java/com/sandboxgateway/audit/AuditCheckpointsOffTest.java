package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Objects;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.sandboxgateway.SandboxGatewayApplication;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.json.JsonMapper;

/**
 * Without a signing key the gateway runs, proofs still work, and the checkpoint endpoints say what to set;
 * with a key that is not one, it does not start, and says which setting is wrong without showing it.
 */
class AuditCheckpointsOffTest extends GatewayIntegrationTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldSayWhichSettingTurnsCheckpointsOn() throws Exception {
        createdResponse(CAROL_KEY, unique("resp_"));

        HttpResponse<String> checkpoint = get("/actuator/audit/checkpoint", ADMIN_KEY);
        HttpResponse<String> key = get("/actuator/audit/checkpoint/key", ADMIN_KEY);

        assertThat(checkpoint.statusCode()).isEqualTo(404);
        assertThat(checkpoint.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("application/problem+json"));
        assertThat(JsonMapper.builder().build().readTree(checkpoint.body()).path("detail").asString())
                .contains("gateway.audit.signing-key");
        assertThat(key.statusCode()).isEqualTo(404);
        assertThat(get("/actuator/audit/proof/inclusion?seq=1&size=1", ADMIN_KEY).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/audit/proof/inclusion?seq=1", ADMIN_KEY).statusCode()).isEqualTo(400);
        assertThat(get("/actuator/audit/proof/inclusion?seq=1&size=1", BOB_KEY).statusCode()).isEqualTo(403);
    }

    @Test
    void shouldNotStartWithABadSigningKeyAndNameItWithoutShowingIt() {
        String badKey = "bm90LWFuLWVkMjU1MTkta2V5LWJ1dC1hLXNlY3JldA==";

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(SandboxGatewayApplication.class).profiles("test")
                .run("--server.port=0", "--management.server.port=0", "--gateway.audit.signing-key=" + badKey,
                        "--spring.datasource.url=jdbc:h2:mem:bad-signing-key;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
                        "--gateway.audit.spool-dir=target/audit-spool/bad-signing-key", "--gateway.upstream.base-url=" + openAi.baseUrl())
                .close());

        assertThat(failure).isNotNull();
        assertThat(Stream.iterate(failure, Objects::nonNull, Throwable::getCause).map(Throwable::getMessage).filter(Objects::nonNull))
                .anySatisfy(message -> assertThat(message).contains("gateway.audit.signing-key is not a usable Ed25519 key"))
                .allSatisfy(message -> assertThat(message).doesNotContain(badKey));
    }

    private HttpResponse<String> get(String path, String key) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Authorization", "Bearer " + key).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }
}
