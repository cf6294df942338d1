package com.sandboxgateway.deploy;

import static com.sandboxgateway.deploy.DeployFiles.at;
import static com.sandboxgateway.deploy.DeployFiles.map;
import static com.sandboxgateway.deploy.DeployFiles.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import com.sandboxgateway.audit.AuditProperties;

/**
 * The chart's wiring. The first tests read values.yaml and the templates as text, so they run
 * everywhere; the others render the chart and run only where helm is installed.
 */
class HelmChartTest {

    private static final String CHART = "helm/sandbox-gateway";
    private static final Pattern ENV_NAME = Pattern.compile("- name: ([A-Z][A-Z0-9_]*)");
    private static final Pattern CONTAINER_PORT = Pattern.compile("containerPort: (\\d+)");

    private final String workload = DeployFiles.text(CHART + "/templates/workload.yaml");
    private final Map<String, Object> values = DeployFiles.yaml(CHART + "/values.yaml");

    @Test
    void shouldSetOnlyVariablesTheGatewayBinds() {
        assertThat(ENV_NAME.matcher(workload).results().map(r -> r.group(1))).isSubsetOf(GatewayEnvironment.BOUND);
    }

    @Test
    void shouldBindEveryGatewayVariableToTheGatewaysConfiguration() {
        Set<String> gatewayNames = GatewayEnvironment.BOUND.stream().filter(name -> name.startsWith("GATEWAY_") || name.equals("OPENAI_API_KEY"))
                .collect(Collectors.toSet());
        assertThat(GatewayEnvironment.gatewayVariables()).containsAll(gatewayNames);
    }

    @Test
    void shouldListenOnTheGatewaysPorts() {
        assertThat(CONTAINER_PORT.matcher(workload).results().map(r -> Integer.valueOf(r.group(1))))
                .containsExactly(DeployFiles.apiPort(), DeployFiles.managementPort());
    }

    @Test
    void shouldProbeTheHealthGroupsOnTheManagementPort() {
        assertThat(workload).contains("""
                  livenessProbe:
                    httpGet:
                      path: /actuator/health/liveness
                      port: management""".indent(10).stripTrailing())
                .contains("""
                  readinessProbe:
                    httpGet:
                      path: /actuator/health/readiness
                      port: management""".indent(10).stripTrailing());
        assertThat(DeployFiles.text(CHART + "/templates/servicemonitor.yaml")).contains("port: management", "path: /actuator/prometheus");
    }

    @Test
    void shouldDefaultToTheOrgPolicyOfTheImage() {
        Map<String, Object> imagePolicy = copy(map(at(DeployFiles.applicationYml(), "gateway.policy.org")));
        // The key comes from a Secret (GATEWAY_PSEUDONYM_KEY), never from values.
        map(imagePolicy.get("sanitization")).remove("pseudonymization-key");
        assertThat(at(values, "config.gateway.policy.org"))
                .as("config.gateway.policy.org of %s/values.yaml must show the defaults of application.yml", CHART)
                .isEqualTo(imagePolicy);
    }

    @Test
    void shouldTurnOnSharedStateStructuredLogsAndAReadOnlyRoot() {
        assertThat(at(values, "postgresql.enabled")).isEqualTo(true);
        assertThat(at(values, "redis.enabled")).isEqualTo(true);
        assertThat(at(values, "logging.structuredFormat")).isEqualTo("ecs");
        assertThat(at(values, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(at(values, "metrics.serviceMonitor.enabled")).isEqualTo(false);
        assertThat(at(values, "metrics.prometheusRule.enabled")).isEqualTo(false);
    }

    @Test
    void shouldRenderAWritableSpoolBesideAReadOnlyRoot() {
        Map<String, Object> container = container(render("gw"), "Deployment");
        Map<String, String> environment = environment(container);
        assertThat(environment.keySet()).isSubsetOf(GatewayEnvironment.BOUND);
        Map<String, Object> mounts = maps(container.get("volumeMounts")).stream()
                .collect(Collectors.toMap(mount -> (String) mount.get("mountPath"), mount -> mount.getOrDefault("readOnly", false)));
        assertThat(environment.get("GATEWAY_AUDIT_SPOOL_DIR")).startsWith("/app/data/");
        assertThat(mounts).containsEntry("/app/data", false).containsEntry("/tmp", false);
        for (String location : environment.get("SPRING_CONFIG_ADDITIONAL_LOCATION").split(",")) {
            String directory = location.substring("file:".length(), location.lastIndexOf('/'));
            assertThat(mounts).as(location).containsEntry(directory, true);
        }
        assertThat(at(container, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
    }

    @Test
    void shouldProbeTheManagementPortOfTheRenderedPod() {
        Map<String, Object> container = container(render("gw"), "Deployment");
        Map<String, Object> ports = maps(container.get("ports")).stream()
                .collect(Collectors.toMap(port -> (String) port.get("name"), port -> port.get("containerPort")));
        assertThat(ports).containsEntry("http", DeployFiles.apiPort()).containsEntry("management", DeployFiles.managementPort());
        assertThat(at(container, "livenessProbe.httpGet.port")).isEqualTo("management");
        assertThat(at(container, "readinessProbe.httpGet.port")).isEqualTo("management");
    }

    @Test
    void shouldKeepTheSpoolOfEachReplicaOnItsOwnVolumeWhenPersistent() {
        List<Map<String, Object>> objects = render("gw", "-f", CHART + "/ci/persistent-values.yaml");
        Map<String, Object> statefulSet = object(objects, "StatefulSet");
        assertThat(maps(at(statefulSet, "spec.volumeClaimTemplates"))).extracting(claim -> at(claim, "metadata.name")).containsExactly("data");
        assertThat(kinds(objects)).doesNotContain("Deployment", "HorizontalPodAutoscaler");
        assertThat(maps(at(object(objects, "ServiceMonitor"), "spec.endpoints")).getFirst())
                .containsEntry("port", "management").containsEntry("path", "/actuator/prometheus");
        assertThat(at(object(objects, "PrometheusRule"), "spec.groups"))
                .isEqualTo(DeployFiles.yaml(CHART + "/files/alerts.yml").get("groups"));
    }

    @Test
    void shouldRenderASingleReplicaWithoutSharedState() {
        Map<String, String> environment = environment(container(render("gw", "-f", CHART + "/ci/single-replica-values.yaml"), "Deployment"));
        assertThat(environment).containsEntry("GATEWAY_STATE_BACKEND", "memory")
                .doesNotContainKeys("SPRING_DATASOURCE_URL", "SPRING_DATA_REDIS_HOST", "GATEWAY_PSEUDONYM_KEY");
    }

    @Test
    void shouldSignNoCheckpointsByDefault() {
        List<Map<String, Object>> objects = render("gw");
        assertThat(environment(container(objects, "Deployment"))).doesNotContainKeys("GATEWAY_AUDIT_SIGNING_KEY", "GATEWAY_AUDIT_WITNESS_FILE",
                "GATEWAY_AUDIT_WITNESS_URLS");
        assertThat(maps(at(object(objects, "Deployment"), "spec.template.spec.volumes"))).extracting(volume -> volume.get("name"))
                .doesNotContain("audit-witness");
    }

    @Test
    void shouldSignCheckpointsWithTheKeyOfASecretAndPublishThemToTheWitnesses() {
        List<Map<String, Object>> objects = render("gw", "-f", CHART + "/ci/persistent-values.yaml");
        Map<String, Object> container = container(objects, "StatefulSet");
        Map<String, Object> signingKey = maps(container.get("env")).stream().filter(v -> "GATEWAY_AUDIT_SIGNING_KEY".equals(v.get("name")))
                .findFirst().orElseThrow();
        assertThat(at(signingKey, "valueFrom.secretKeyRef")).isEqualTo(Map.of("name", "sandbox-gateway-audit-signing", "key", "key"));
        assertThat(signingKey).doesNotContainKey("value");

        // The gateway binds what the chart sets: each pod its own witness file, on the mounted witness volume.
        Map<String, String> environment = environment(container);
        environment.put("HOSTNAME", "gw-sandbox-gateway-1");
        AuditProperties audit = bind(environment);
        assertThat(audit.logOrigin()).isEqualTo("audit.example.com/sandbox-gateway");
        assertThat(audit.checkpointInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(audit.witness().urls()).containsExactly(URI.create("https://siem.example.com/checkpoints"),
                URI.create("http://witness.audit.svc:8080/add"));
        assertThat(audit.witness().timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(audit.witness().file()).isEqualTo(Path.of("/app/witness/gw-sandbox-gateway-1.checkpoints"));
        assertThat(maps(container.get("volumeMounts"))).contains(Map.of("name", "audit-witness", "mountPath", "/app/witness"));
        assertThat(maps(at(object(objects, "StatefulSet"), "spec.template.spec.volumes")))
                .contains(Map.of("name", "audit-witness", "persistentVolumeClaim", Map.of("claimName", "sandbox-gateway-audit-witness")));

        List<Map<String, Object>> egress = maps(at(object(objects, "NetworkPolicy"), "spec.egress"));
        assertThat(egress).anySatisfy(rule -> {
            assertThat(maps(rule.get("ports"))).extracting(port -> port.get("port")).containsExactly(443, 8080);
            assertThat(maps(rule.get("to"))).extracting(peer -> at(peer, "namespaceSelector.matchLabels"))
                    .containsExactly(Map.of("kubernetes.io/metadata.name", "audit"));
        });
    }

    @Test
    void shouldRefuseWitnessesWithoutASigningKey() {
        ExternalTool.Result result = ExternalTool.require("helm").run("template", "gw", CHART, "--set",
                "audit.witness.urls={https://siem.example.com/checkpoints}");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.errors()).contains("audit.witness is set but audit.signingKey.existingSecret is empty");
    }

    @Test
    void shouldRefuseAWitnessUrlThatIsNotHttp() {
        ExternalTool.Result result = ExternalTool.require("helm").run("template", "gw", CHART, "--set",
                "audit.signingKey.existingSecret=gw-audit", "--set", "audit.witness.urls={siem.example.com}");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.errors()).contains("audit.witness.urls must be http or https URLs, was siem.example.com");
    }

    @Test
    void shouldRefuseSeveralReplicasWithoutSharedState() {
        ExternalTool.Result result = ExternalTool.require("helm").run("template", "gw", CHART, "--set", "redis.enabled=false");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.errors()).contains("redis.enabled=false keeps rate limits in each pod's memory");
    }

    @Test
    void shouldBeSelfContainedWithoutLinksOutOfTheChart() throws IOException {
        try (Stream<Path> files = Files.walk(DeployFiles.path(CHART))) {
            assertThat(files.filter(Files::isSymbolicLink)).as("helm package does not follow links").isEmpty();
        }
        for (String file : List.of("files/alerts.yml", "files/sandbox-gateway.json")) {
            assertThat(DeployFiles.text(CHART + "/templates/" + (file.endsWith(".yml") ? "prometheusrule.yaml" : "grafana-dashboard.yaml")))
                    .contains(".Files.Get \"" + file + "\"");
        }
    }

    @Test
    void shouldCarryTheRulesAndTheDashboardInThePackagedChart(@TempDir Path out) throws IOException {
        ExternalTool.require("helm").run("package", CHART, "--destination", out.toString()).assertSucceeded();
        Path archive;
        try (Stream<Path> packaged = Files.list(out)) {
            archive = packaged.filter(file -> file.toString().endsWith(".tgz")).findFirst().orElseThrow();
        }
        Path unpacked = Files.createDirectory(out.resolve("unpacked"));
        ExternalTool.require("tar").run("-xzf", archive.toString(), "-C", unpacked.toString()).assertSucceeded();
        for (String file : List.of("files/alerts.yml", "files/sandbox-gateway.json")) {
            assertThat(unpacked.resolve("sandbox-gateway/" + file)).as(file).isRegularFile()
                    .hasContent(DeployFiles.text(CHART + "/" + file));
        }
    }

    @Test
    void shouldPassHelmLintWithEveryValuesFile() {
        ExternalTool helm = ExternalTool.require("helm");
        helm.run("lint", "--strict", CHART).assertSucceeded();
        helm.run("lint", "--strict", CHART, "-f", CHART + "/ci/persistent-values.yaml").assertSucceeded();
        helm.run("lint", "--strict", CHART, "-f", CHART + "/ci/single-replica-values.yaml").assertSucceeded();
    }

    private static List<Map<String, Object>> render(String release, String... options) {
        List<String> arguments = new ArrayList<>(List.of("template", release, CHART));
        arguments.addAll(List.of(options));
        String manifests = ExternalTool.require("helm").run(arguments.toArray(String[]::new)).assertSucceeded().output();
        return DeployFiles.yamlDocuments(manifests);
    }

    private static Map<String, Object> object(List<Map<String, Object>> objects, String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " among " + kinds(objects)));
    }

    private static List<Object> kinds(List<Map<String, Object>> objects) {
        return objects.stream().map(o -> o.get("kind")).toList();
    }

    private static Map<String, Object> container(List<Map<String, Object>> objects, String kind) {
        return maps(at(object(objects, kind), "spec.template.spec.containers")).getFirst();
    }

    private static Map<String, String> environment(Map<String, Object> container) {
        Map<String, String> environment = new HashMap<>();
        for (Map<String, Object> variable : maps(container.get("env"))) {
            environment.put((String) variable.get("name"), String.valueOf(variable.get("value")));
        }
        return environment;
    }

    /** Binds gateway.audit from environment variables as the gateway does, placeholders resolved. */
    private static AuditProperties bind(Map<String, String> environment) {
        List<PropertySource<?>> sources = List.of(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.copyOf(environment)));
        Binder binder = new Binder(ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(sources));
        return binder.bindOrCreate("gateway.audit", AuditProperties.class);
    }

    private static Map<String, Object> copy(Map<String, Object> tree) {
        Map<String, Object> copy = new HashMap<>();
        tree.forEach((key, value) -> copy.put(key, value instanceof Map<?, ?> ? copy(map(value)) : value));
        return copy;
    }
}
