package com.sandboxgateway.ownership;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.H2Maps;

/**
 * The owner records. An id is recorded once: the first owner stays the owner, whatever is reported about the id later,
 * and a deleted object stays on record so a reused id can never change hands.
 */
public interface OwnershipStore {

    /**
     * The store the gateway's database keeps: an H2 embedded in this JVM (the default) in its file's own maps
     * ({@link EmbeddedOwnershipStore}), any other (PostgreSQL) in a table ({@link JdbcOwnershipStore}), whose live records
     * a replica trusts for {@code gateway.ownership.cache-ttl}. The embedded store first moves in the rows an earlier
     * version left in the table.
     */
    static OwnershipStore of(JdbcClient jdbc, DataSource dataSource, Clock clock, OwnershipProperties properties) {
        return H2Maps.of(dataSource, EmbeddedOwnershipStore.Maps::open)
                .<OwnershipStore>map(maps -> new EmbeddedOwnershipStore(maps, clock).movedFrom(jdbc))
                .orElseGet(() -> new JdbcOwnershipStore(jdbc, dataSource, clock, properties.cacheTtl()));
    }

    /**
     * Whether its writes are made in the database's transactions (a table's), so that a group commit joins them; false:
     * they take none, and are durable as they are made.
     */
    default boolean writesInTransactions() {
        return true;
    }

    /** An object an answer created, to be recorded for its creator. */
    record Created(String id, ObjectKind kind, String parentId, Instant expiresAt) {
    }

    /** Records a new object for its creator; does nothing if the id is already recorded. */
    default void record(String id, ObjectKind kind, Principal owner, String parentId, Instant expiresAt) {
        recordAll(owner, List.of(new Created(id, kind, parentId, expiresAt)));
    }

    /** Records the objects one answer created for their creator; an id on record, or repeated in the list, keeps its first owner. */
    void recordAll(Principal owner, List<Created> objects);

    /**
     * Records them as the transaction's last statement where the store writes in the transaction ({@link CommitTail}); a
     * store outside it records them at once.
     */
    default void recordAll(Principal owner, List<Created> objects, CommitTail tail) {
        recordAll(owner, objects);
    }

    Optional<OwnedObject> find(String id);

    /** The records of those ids that are on record. */
    List<OwnedObject> findAll(Collection<String> ids);

    /** Live (not deleted) objects of a kind the reaper tracks ({@link ObjectKind#isReaped()}), newest first, optionally of one team. */
    List<OwnedObject> live(ObjectKind kind, String team, int limit);

    /** Marks the object deleted; it stays on record. */
    void markDeleted(String id);

    /**
     * Live objects of a kind the reaper tracks past {@code expiredBefore} (and, with {@code includeUndated}, those without
     * expiry), soonest expired first, then oldest: read in that order and no further than {@code limit}, however many
     * objects of the kind were ever recorded.
     */
    List<OwnedObject> reapable(ObjectKind kind, Instant expiredBefore, boolean includeUndated, int limit);

    /**
     * Claims an object for one reaper until {@code until}; false when another holds a live claim. Atomic in the store, so
     * two replicas never both win.
     */
    boolean claim(String id, Instant until);
}
