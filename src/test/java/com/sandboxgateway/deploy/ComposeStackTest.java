package com.sandboxgateway.deploy;

import static com.sandboxgateway.deploy.DeployFiles.at;
import static com.sandboxgateway.deploy.DeployFiles.list;
import static com.sandboxgateway.deploy.DeployFiles.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ComposeStackTest {

    private static final List<String> GATEWAYS = List.of("gateway-1", "gateway-2");

    private final Map<String, Object> services = map(DeployFiles.yaml("docker-compose.yml").get("services"));

    @Test
    void shouldSetOnlyVariablesTheGatewayBinds() {
        for (String gateway : GATEWAYS) {
            assertThat(environment(gateway).keySet()).as(gateway).isSubsetOf(GatewayEnvironment.BOUND);
        }
    }

    @Test
    void shouldForwardToTheSimulatorWithANonEmptyKey() {
        Map<String, Object> environment = environment("gateway-1");
        // An empty key would make each gateway start its own embedded simulator instead.
        assertThat((String) environment.get("OPENAI_API_KEY")).isNotBlank();
        URI upstream = URI.create((String) environment.get("GATEWAY_UPSTREAM_BASE_URL"));
        assertThat(upstream.getHost()).isEqualTo("openai-simulator");
        assertThat(list(at(service("openai-simulator"), "entrypoint"))).endsWith(
                "com.sandboxgateway.simulator.OfflineSimulator", Integer.toString(upstream.getPort()));
    }

    @Test
    void shouldRunTheGatewaysOwnSimulatorReachableOnTheComposeNetwork() {
        assertThat(service("openai-simulator")).containsEntry("image", "sandbox-gateway:local");
        assertThat(map(service("openai-simulator").get("environment"))).containsEntry("SIMULATOR_BIND", "0.0.0.0");
    }

    @Test
    void shouldKeepAuditAndOwnershipInTheStacksPostgres() {
        Map<String, Object> gateway = environment("gateway-1");
        Map<String, Object> postgres = map(service("postgres").get("environment"));
        assertThat(gateway.get("SPRING_DATASOURCE_URL")).isEqualTo("jdbc:postgresql://postgres:5432/" + postgres.get("POSTGRES_DB"));
        assertThat(gateway.get("SPRING_DATASOURCE_USERNAME")).isEqualTo(postgres.get("POSTGRES_USER"));
        assertThat(gateway.get("SPRING_DATASOURCE_PASSWORD")).isEqualTo(postgres.get("POSTGRES_PASSWORD"));
    }

    @Test
    void shouldShareRateLimitsThroughTheStacksRedis() {
        Map<String, Object> gateway = environment("gateway-1");
        assertThat(gateway).containsEntry("GATEWAY_STATE_BACKEND", "redis").containsEntry("SPRING_DATA_REDIS_HOST", "redis")
                .containsEntry("SPRING_DATA_REDIS_PORT", "6379");
        assertThat(services).containsKey("redis");
    }

    @Test
    void shouldGiveEachReplicaItsOwnAuditSpoolVolume() {
        String spool = (String) environment("gateway-1").get("GATEWAY_AUDIT_SPOOL_DIR");
        List<String> volumes = GATEWAYS.stream().map(gateway -> (String) list(service(gateway).get("volumes")).getFirst()).toList();
        assertThat(volumes).doesNotHaveDuplicates()
                .allSatisfy(volume -> assertThat(spool).startsWith(volume.split(":")[1] + "/"));
    }

    @Test
    void shouldBalanceTheApiAndManagementPortsOverEveryReplica() {
        String nginx = DeployFiles.text("deploy/nginx/nginx.conf");
        for (String gateway : GATEWAYS) {
            assertThat(nginx).contains("server " + gateway + ":" + DeployFiles.apiPort() + " resolve;")
                    .contains("server " + gateway + ":" + DeployFiles.managementPort() + " resolve;");
        }
        assertThat(list(service("nginx").get("ports"))).contains(DeployFiles.apiPort() + ":8080", DeployFiles.managementPort() + ":8081");
        assertThat(nginx).contains("listen 8080;").contains("listen 8081;").contains("proxy_buffering off;");
    }

    @Test
    void shouldScrapeEveryReplicaOnTheManagementPort() {
        Map<String, Object> job = DeployFiles.maps(DeployFiles.yaml("deploy/prometheus/prometheus.yml").get("scrape_configs")).getFirst();
        assertThat(job).containsEntry("job_name", "sandbox-gateway").containsEntry("metrics_path", "/actuator/prometheus");
        assertThat(list(DeployFiles.maps(job.get("static_configs")).getFirst().get("targets")))
                .containsExactlyElementsOf(GATEWAYS.stream().map(gateway -> gateway + ":" + DeployFiles.managementPort()).toList());
    }

    @Test
    void shouldLoadTheAlertRulesIntoPrometheus() {
        List<Object> ruleFiles = list(DeployFiles.yaml("deploy/prometheus/prometheus.yml").get("rule_files"));
        assertThat(list(service("prometheus").get("volumes"))).contains("./helm/sandbox-gateway/files/alerts.yml:" + ruleFiles.getFirst() + ":ro");
    }

    @Test
    void shouldMountOnlyFilesThatExist() {
        services.values().stream().map(DeployFiles::map).filter(service -> service.containsKey("volumes"))
                .flatMap(service -> list(service.get("volumes")).stream()).map(String.class::cast)
                .filter(volume -> volume.startsWith("./")).map(volume -> volume.substring(2, volume.indexOf(':')))
                .forEach(source -> assertThat(Files.exists(DeployFiles.path(source))).as(source).isTrue());
    }

    private Map<String, Object> service(String name) {
        return map(services.get(name));
    }

    private Map<String, Object> environment(String gateway) {
        return map(service(gateway).get("environment"));
    }
}
