package com.sandboxgateway.admin;

import java.util.List;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.ownership.ObjectKind;
import com.sandboxgateway.ownership.OwnedObject;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

/**
 * {@code /actuator/containers} (admin role): the live containers created through the gateway, newest
 * first ({@code team}, {@code limit}); {@code DELETE /{id}} deletes one upstream, whoever owns it.
 */
@Component
@Endpoint(id = "containers")
class ContainersEndpoint {

    private static final int MAX_LIMIT = 1000;
    /** The bulkhead admin deletions are counted in, apart from every team's. */
    private static final String BULKHEAD = "gateway-admin";

    private final OwnershipStore store;
    private final UpstreamClient upstream;
    private final AdminActions actions;

    ContainersEndpoint(OwnershipStore store, UpstreamClient upstream, AdminActions actions) {
        this.store = store;
        this.upstream = upstream;
        this.actions = actions;
    }

    /** @param upstreamStatus what OpenAI answered to the deletion (404: it was gone already) */
    record Deleted(String id, String ownerUser, String ownerTeam, int upstreamStatus) {
    }

    @ReadOperation
    List<OwnedObject> containers(@Nullable String team, @Nullable Integer limit) {
        int size = limit == null ? 100 : limit;
        if (size < 1 || size > MAX_LIMIT) {
            throw new InvalidEndpointRequestException("limit must be between 1 and " + MAX_LIMIT, "bad limit");
        }
        return store.live(ObjectKind.CONTAINER, team, size);
    }

    /** 404 for an id the gateway does not track. */
    @DeleteOperation
    Deleted delete(@Selector String id, SecurityContext admin) {
        OwnedObject container = store.find(id).filter(found -> found.kind() == ObjectKind.CONTAINER)
                .orElseThrow(() -> new AdminProblems.NotFound("The gateway tracks no container '" + id
                        + "'; GET /actuator/containers lists the live ones."));
        actions.record(admin, Map.of("action", "delete_container", "container", id, "owner", container.ownerUser()));
        UpstreamRequest request = new UpstreamRequest(BULKHEAD, "DELETE", "/v1/containers/" + id,
                Map.of("Accept", "application/json"), new UpstreamRequest.NoBody(), false);
        try (UpstreamResponse answer = upstream.send(request)) {
            if (answer.status() != 200 && answer.status() != 404) {
                throw new AdminProblems.UpstreamFailed("OpenAI answered " + answer.status() + " to deleting " + id
                        + "; it is still tracked, retry later.");
            }
            store.markDeleted(id);
            return new Deleted(id, container.ownerUser(), container.ownerTeam(), answer.status());
        } catch (GatewayException e) {
            throw new AdminProblems.UpstreamFailed("Could not delete " + id + " upstream: " + e.getMessage());
        }
    }
}
