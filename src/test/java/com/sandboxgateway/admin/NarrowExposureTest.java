package com.sandboxgateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * An operator who exposes only the scrape on the management port (no health endpoint, so no status aggregator) still
 * gets a gateway that starts and serves: the upstream breaker's health indicator used to require the aggregator and
 * failed the start.
 */
@TestPropertySource(properties = "management.endpoints.web.exposure.include=prometheus")
class NarrowExposureTest extends GatewayIntegrationTest {

    @LocalManagementPort
    private int managementPort;

    @Test
    void shouldStartAndServeWithOnlyTheScrapeExposed() throws Exception {
        String id = unique("resp_");

        assertThat(createdResponse(ALICE_KEY, id)).isEqualTo(id);
        assertThat(management("/actuator/prometheus")).satisfies(scrape -> {
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("resilience4j_circuitbreaker_state{name=\"upstream\",state=\"closed\"} 1");
        });
        assertThat(management("/actuator/health").statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> management(String path) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
