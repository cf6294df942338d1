package com.sandboxgateway.ownership;

import java.time.Instant;

/**
 * An object created through the gateway and who created it.
 *
 * @param parentId the container of a container file, else {@code null}
 * @param expiresAt when the upstream drops it, or {@code null} if it does not expire
 * @param deletedAt when it was deleted through the gateway, or {@code null}
 */
public record OwnedObject(String id, ObjectKind kind, String ownerUser, String ownerTeam, String parentId,
                          Instant createdAt, Instant expiresAt, Instant deletedAt) {

    public boolean isDeleted() {
        return deletedAt != null;
    }
}
