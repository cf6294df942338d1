package com.sandboxgateway.containers;

import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.upstream.UpstreamClient;

import tools.jackson.databind.json.JsonMapper;

/** Two reapers on one PostgreSQL store, as two replicas would run: every object is deleted exactly once. */
@ActiveProfiles({"test", "postgres"})
class ReaperTest extends GatewayIntegrationTest {

    @Autowired
    OwnershipStore store;
    @Autowired
    UpstreamClient upstream;
    @Autowired
    TeamPolicies policies;
    @Autowired
    JsonMapper json;

    @DynamicPropertySource
    static void freshSchema(DynamicPropertyRegistry registry) {
        LocalPostgres.recreateSchema();
    }

    @Test
    void shouldDeleteExpiredFilesAndIdleContainersOnceAcrossReplicas() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            files.add(createdFile(ALICE_KEY, unique("file-")));
        }
        String idle = createdContainer(ALICE_KEY, unique("cntr_"));
        String busy = createdContainer(ALICE_KEY, unique("cntr_"));
        long now = Instant.now().getEpochSecond();
        openAi.stubFor(get("/v1/containers/" + idle).willReturn(okJson(container(idle, now - 3600))));
        openAi.stubFor(get("/v1/containers/" + busy).willReturn(okJson(container(busy, now - 60))));
        openAi.stubFor(delete(urlPathMatching("/v1/(files|containers)/.*")).willReturn(okJson("{\"deleted\":true}")));

        Reaper first = new Reaper(store, upstream, policies, json, Clock.systemUTC());
        Reaper second = new Reaper(store, upstream, policies, json, Clock.systemUTC());
        try (ExecutorService replicas = Executors.newFixedThreadPool(2)) {
            List<Future<Integer>> passes = replicas.invokeAll(List.<Callable<Integer>>of(first::reap, second::reap));
            int deleted = passes.get(0).get() + passes.get(1).get();
            assertThat(deleted).isGreaterThanOrEqualTo(files.size() + 1);
        }

        for (String file : files) {
            openAi.verify(1, deleteRequestedFor(urlEqualTo("/v1/files/" + file)));
            assertThat(store.find(file)).hasValueSatisfying(object -> assertThat(object.isDeleted()).isTrue());
        }
        openAi.verify(1, deleteRequestedFor(urlEqualTo("/v1/containers/" + idle)));
        openAi.verify(0, deleteRequestedFor(urlEqualTo("/v1/containers/" + busy)));
        assertThat(first.reap() + second.reap()).as("a second pass finds nothing left").isZero();
    }

    private static String container(String id, long lastActiveAt) {
        return example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, id)
                .replace("\"last_active_at\": 1756000000", "\"last_active_at\": " + lastActiveAt);
    }
}
