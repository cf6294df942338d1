package com.sandboxgateway.ownership;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

import com.sandboxgateway.auth.Principal;

/**
 * Decides who sees what: an object is visible to its creator (scope {@code user}) or to the creator's
 * team (scope {@code team}), until it is deleted. Objects the gateway never recorded are visible to
 * no one, so ids created outside the gateway cannot be reached through it.
 */
@Component
public class Ownership {

    private final OwnershipStore store;
    private final OwnershipProperties.Scope scope;

    Ownership(OwnershipStore store, OwnershipProperties properties) {
        this.store = store;
        this.scope = properties.scope();
    }

    /** The object if it exists on record and the principal may see it. */
    public Optional<OwnedObject> visible(String id, Principal principal) {
        return store.find(id).filter(object -> canSee(object, principal));
    }

    /** The subset of {@code ids} the principal may see. */
    public Set<String> visibleIds(Collection<String> ids, Principal principal) {
        Map<String, OwnedObject> known = store.findAll(ids).stream()
                .collect(Collectors.toMap(OwnedObject::id, Function.identity()));
        return ids.stream().filter(id -> known.containsKey(id) && canSee(known.get(id), principal))
                .collect(Collectors.toSet());
    }

    private boolean canSee(OwnedObject object, Principal principal) {
        if (object.isDeleted() || !object.ownerTeam().equals(principal.team())) {
            return false;
        }
        return scope == OwnershipProperties.Scope.TEAM || object.ownerUser().equals(principal.user());
    }
}
