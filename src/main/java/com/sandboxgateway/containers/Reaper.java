package com.sandboxgateway.containers;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.ownership.ObjectKind;
import com.sandboxgateway.ownership.OwnedObject;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Deletes upstream what should no longer exist: tracked files past their expiry, tracked containers
 * idle past their team's limit (as the upstream reports their last activity). Safe with several
 * replicas: each object is claimed in the database first, and only the claimant deletes it.
 */
public final class Reaper {

    private static final Logger log = LoggerFactory.getLogger(Reaper.class);
    private static final String TEAM = "gateway-reaper";
    private static final int BATCH = 100;
    private static final Duration CLAIM = Duration.ofMinutes(5);

    private final OwnershipStore store;
    private final UpstreamClient upstream;
    private final TeamPolicies policies;
    private final JsonMapper json;
    private final Clock clock;

    public Reaper(OwnershipStore store, UpstreamClient upstream, TeamPolicies policies, JsonMapper json, Clock clock) {
        this.store = store;
        this.upstream = upstream;
        this.policies = policies;
        this.json = json;
        this.clock = clock;
    }

    /** One pass; returns how many objects this instance deleted. */
    public int reap() {
        Instant now = clock.instant();
        int deleted = 0;
        for (OwnedObject file : store.reapable(ObjectKind.FILE, now, false, BATCH)) {
            if (store.claim(file.id(), now.plus(CLAIM)) && delete("/v1/files/" + file.id(), file.id())) {
                deleted++;
            }
        }
        for (OwnedObject container : store.reapable(ObjectKind.CONTAINER, now, true, BATCH)) {
            if (idleTooLong(container, now) && store.claim(container.id(), now.plus(CLAIM))
                    && delete("/v1/containers/" + container.id(), container.id())) {
                deleted++;
            }
        }
        return deleted;
    }

    private boolean idleTooLong(OwnedObject container, Instant now) {
        try (UpstreamResponse answer = upstream.send(request("GET", "/v1/containers/" + container.id()))) {
            if (answer.status() == 404) {
                store.markDeleted(container.id());
                return false;
            }
            if (answer.status() != 200) {
                return false;
            }
            JsonNode body = json.readTree(answer.readBody(1 << 20));
            if ("expired".equals(body.path("status").asString(null))) {
                return true;
            }
            long lastActive = body.path("last_active_at").asLong(body.path("created_at").asLong(now.getEpochSecond()));
            int maxIdle = policies.of(container.ownerTeam()).maxIdleMinutes();
            return now.isAfter(Instant.ofEpochSecond(lastActive).plus(Duration.ofMinutes(maxIdle)));
        } catch (IOException | GatewayException e) {
            log.warn("Reaper could not check container {}: {}", container.id(), e.getMessage());
            return false;
        }
    }

    private boolean delete(String path, String id) {
        try (UpstreamResponse answer = upstream.send(request("DELETE", path))) {
            if (answer.status() == 200 || answer.status() == 404) {
                store.markDeleted(id);
                log.info("Reaper deleted {}", id);
                return answer.status() == 200;
            }
            log.warn("Reaper could not delete {}: upstream answered {}", id, answer.status());
            return false;
        } catch (GatewayException e) {
            log.warn("Reaper could not delete {}: {}", id, e.getMessage());
            return false;
        }
    }

    private static UpstreamRequest request(String method, String path) {
        return new UpstreamRequest(TEAM, method, path, Map.of("Accept", "application/json"), new UpstreamRequest.NoBody(), false);
    }
}
