package com.sandboxgateway.deploy;

import static com.sandboxgateway.deploy.DeployFiles.at;
import static com.sandboxgateway.deploy.DeployFiles.list;
import static com.sandboxgateway.deploy.DeployFiles.map;
import static com.sandboxgateway.deploy.DeployFiles.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

class GrafanaDashboardTest {

    private static final String DASHBOARD = "helm/sandbox-gateway/files/sandbox-gateway.json";
    private static final Pattern SELECTOR = Pattern.compile("\\b([a-z_:][a-z0-9_:]*)(\\{[^}]*})?");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((\\w+), *(\\w+)\\)");

    private final Map<String, Object> dashboard = map(JsonMapper.builder().build().readValue(DeployFiles.text(DASHBOARD), Map.class));

    @Test
    void shouldQueryOnlyMetricsAndLabelsTheGatewayExports() {
        assertThat(targets()).isNotEmpty().allSatisfy(target -> {
            PromQl query = PromQl.parse(target.expr());
            assertThat(query.unknownMetrics()).as("metrics of panel '%s'", target.panel()).isEmpty();
            assertThat(query.unknownLabels()).as("labels of panel '%s'", target.panel()).isEmpty();
        });
    }

    @Test
    void shouldFilterEverySelectorOfATeamLabelledMetricByTheTeamVariable() {
        assertThat(targets()).allSatisfy(target -> SELECTOR.matcher(target.expr()).results()
                .filter(selector -> MetricsContract.METRICS.getOrDefault(selector.group(1), Set.of()).contains("team"))
                .forEach(selector -> assertThat(selector.group()).as("panel '%s'", target.panel()).contains("team=~\"$team\"")));
    }

    @Test
    void shouldOfferTheTeamsOfTheGatewaysRequests() {
        Map<String, Object> team = maps(at(dashboard, "templating.list")).stream()
                .filter(variable -> "team".equals(variable.get("name"))).findFirst().orElseThrow();
        var query = LABEL_VALUES.matcher((String) team.get("definition"));
        assertThat(query.matches()).isTrue();
        assertThat(MetricsContract.METRICS.get(query.group(1))).contains(query.group(2));
        assertThat(team).containsEntry("multi", true).containsEntry("includeAll", true);
    }

    @Test
    void shouldGivePanelsDistinctIds() {
        assertThat(panels()).extracting(panel -> panel.get("id")).doesNotHaveDuplicates();
    }

    @Test
    void shouldBeProvisionedFromTheChartsFileComposeMounts() {
        Map<String, Object> provider = maps(DeployFiles.yaml("deploy/grafana/provisioning/dashboards/sandbox-gateway.yml").get("providers")).getFirst();
        Map<String, Object> grafana = map(at(DeployFiles.yaml("docker-compose.yml"), "services.grafana"));
        assertThat(list(grafana.get("volumes"))).contains("./" + DASHBOARD + ":" + at(provider, "options.path") + "/sandbox-gateway.json:ro",
                "./deploy/grafana/provisioning:/etc/grafana/provisioning:ro");
        Map<String, Object> datasource = maps(DeployFiles.yaml("deploy/grafana/provisioning/datasources/prometheus.yml").get("datasources")).getFirst();
        assertThat(datasource).containsEntry("type", "prometheus").containsEntry("url", "http://prometheus:9090");
    }

    private List<Map<String, Object>> panels() {
        return maps(dashboard.get("panels"));
    }

    private List<Target> targets() {
        return panels().stream().filter(panel -> panel.containsKey("targets"))
                .flatMap(panel -> maps(panel.get("targets")).stream().map(t -> new Target((String) panel.get("title"), (String) t.get("expr"))))
                .toList();
    }

    private record Target(String panel, String expr) {
    }
}
