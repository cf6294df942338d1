package com.sandboxgateway.deploy;

import static com.sandboxgateway.deploy.DeployFiles.map;
import static com.sandboxgateway.deploy.DeployFiles.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlertRulesTest {

    private static final String RULES = "helm/sandbox-gateway/files/alerts.yml";
    private static final String RULE_TESTS = "deploy/prometheus/alerts.test.yml";

    private final List<Map<String, Object>> alerts = maps(DeployFiles.yaml(RULES).get("groups")).stream()
            .flatMap(group -> maps(group.get("rules")).stream()).toList();

    @Test
    void shouldGiveEveryAlertASeverityAndTheTextsAnOperatorActsOn() {
        assertThat(alerts).isNotEmpty().allSatisfy(alert -> {
            assertThat(map(alert.get("labels")).get("severity")).as((String) alert.get("alert")).isIn("warning", "critical");
            assertThat(map(alert.get("annotations"))).as((String) alert.get("alert"))
                    .containsKeys("summary", "description", "runbook");
        });
    }

    @Test
    void shouldQueryOnlyMetricsAndLabelsTheGatewayExports() {
        assertThat(alerts).allSatisfy(alert -> {
            PromQl query = PromQl.parse((String) alert.get("expr"));
            assertThat(query.metrics()).as((String) alert.get("alert")).isNotEmpty();
            assertThat(query.unknownMetrics()).as("metrics of " + alert.get("alert")).isEmpty();
            assertThat(query.unknownLabels()).as("labels of " + alert.get("alert")).isEmpty();
        });
    }

    @Test
    void shouldUnitTestEveryAlertFiringAndStayingQuiet() {
        List<Map<String, Object>> cases = maps(DeployFiles.yaml(RULE_TESTS).get("tests")).stream()
                .flatMap(test -> maps(test.get("alert_rule_test")).stream()).toList();
        Set<Object> firing = cases.stream().filter(c -> !DeployFiles.list(c.get("exp_alerts")).isEmpty())
                .map(c -> c.get("alertname")).collect(Collectors.toSet());
        Set<Object> quiet = cases.stream().filter(c -> DeployFiles.list(c.get("exp_alerts")).isEmpty())
                .map(c -> c.get("alertname")).collect(Collectors.toSet());
        List<Object> names = alerts.stream().map(alert -> alert.get("alert")).toList();
        assertThat(firing).as("alerts tested firing").containsExactlyInAnyOrderElementsOf(names);
        assertThat(quiet).as("alerts tested quiet").containsExactlyInAnyOrderElementsOf(names);
    }

    @Test
    void shouldPassPromtoolChecksAndRuleTests(@TempDir Path scratch) throws IOException {
        ExternalTool promtool = ExternalTool.require("promtool");
        promtool.run("check", "rules", RULES).assertSucceeded();
        promtool.run("test", "rules", RULE_TESTS).assertSucceeded();
        // The compose file mounts the rules at the path prometheus.yml names; check it with the rules beside it.
        Path config = scratch.resolve("prometheus.yml");
        Files.writeString(config, DeployFiles.text("deploy/prometheus/prometheus.yml").replace("/etc/prometheus/alerts.yml", "alerts.yml"));
        Files.copy(DeployFiles.path(RULES), scratch.resolve("alerts.yml"));
        promtool.run("check", "config", config.toString()).assertSucceeded();
    }
}
