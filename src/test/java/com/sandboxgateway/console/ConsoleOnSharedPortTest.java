package com.sandboxgateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;

/** When the management endpoints share the public port, the gateway serves no console at all. */
@TestPropertySource(properties = "management.server.port=")
class ConsoleOnSharedPortTest extends GatewayIntegrationTest {

    @Test
    void shouldServeNoConsoleOnThePublicPortEvenWhereTheActuatorIs() throws Exception {
        HttpResponse<String> health = raw(HttpRequest.newBuilder().GET(), "/actuator/health");
        HttpResponse<String> console = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ADMIN_KEY).GET(), "/console");
        HttpResponse<String> login = raw(HttpRequest.newBuilder().GET(), "/console/login");

        assertThat(health.statusCode()).as("the actuator shares the public port").isEqualTo(200);
        assertThat(console.statusCode()).isEqualTo(404);
        assertThat(login.statusCode()).isEqualTo(404);
        assertThat(console.body() + login.body()).doesNotContain("Review queue", "Log in");
    }
}
