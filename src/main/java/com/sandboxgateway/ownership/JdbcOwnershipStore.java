package com.sandboxgateway.ownership;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.store.CommitTail;
import com.sandboxgateway.store.SqlDialect;

/**
 * The owner records in the relational store: PostgreSQL in production (and any database but an H2 embedded in this JVM,
 * which keeps them in its file's maps instead: {@link EmbeddedOwnershipStore}).
 */
final class JdbcOwnershipStore implements OwnershipStore {

    /** Ids per {@code IN} list: far below the bind-parameter limits of PostgreSQL and H2. */
    private static final int FIND_BATCH = 500;
    /** Objects per {@code INSERT}: seven bind parameters each, far below the limits too. */
    private static final int RECORD_BATCH = 500;
    private static final String COLUMNS = "id, kind, owner_user, owner_team, parent_id, created_at, expires_at";

    static final String LIVE_QUERY = """
            SELECT * FROM owned_object WHERE kind = :kind AND deleted_at IS NULL
            AND (CAST(:team AS VARCHAR(255)) IS NULL OR owner_team = :team) ORDER BY created_at DESC LIMIT :limit""";

    private final JdbcClient jdbc;
    private final Clock clock;
    /** PostgreSQL, or H2 in its PostgreSQL mode (the gateway's default URL): both take {@code ON CONFLICT DO NOTHING}. */
    private final boolean onConflict;
    private final LiveRecords live;

    /** @param cacheTtl how long {@link #findAll} trusts a live record it read; zero: it reads the database every time */
    JdbcOwnershipStore(JdbcClient jdbc, DataSource dataSource, Clock clock, Duration cacheTtl) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.onConflict = SqlDialect.of(dataSource).onConflict();
        this.live = new LiveRecords(cacheTtl, clock);
    }

    /**
     * Records the objects one answer created for their creator, in one statement per {@value #RECORD_BATCH}
     * objects (so one commit where no transaction is open, not one per object). An id already on record, or
     * repeated in the list, keeps its first owner: {@code ON CONFLICT DO NOTHING}, which PostgreSQL and H2 (in
     * the PostgreSQL mode the gateway configures) both take; on another H2 URL, one statement per object.
     */
    public void recordAll(Principal owner, List<Created> objects) {
        Timestamp now = Timestamp.from(clock.instant());
        if (!onConflict) {
            objects.forEach(object -> recordOne(owner, object, now));
            return;
        }
        for (int from = 0; from < objects.size(); from += RECORD_BATCH) {
            List<Created> batch = objects.subList(from, Math.min(objects.size(), from + RECORD_BATCH));
            List<Object> values = new ArrayList<>(7 * batch.size());
            for (Created object : batch) {
                values.addAll(values(owner, object, now));
            }
            jdbc.sql("INSERT INTO owned_object (" + COLUMNS + ") VALUES "
                            + String.join(", ", Collections.nCopies(batch.size(), "(?, ?, ?, ?, ?, ?, ?)")) + " ON CONFLICT DO NOTHING")
                    .params(values).update();
        }
    }

    /** Leaves the objects' owner rows to the transaction's last statement; an id on record keeps its first owner. */
    public void recordAll(Principal owner, List<Created> objects, CommitTail tail) {
        Timestamp now = Timestamp.from(clock.instant());
        for (Created object : objects) {
            tail.insert("owned_object", COLUMNS, values(owner, object, now));
        }
    }

    private static List<Object> values(Principal owner, Created object, Timestamp now) {
        return Arrays.asList(object.id(), object.kind().name(), owner.user(), owner.team(), object.parentId(), now,
                object.expiresAt() == null ? null : Timestamp.from(object.expiresAt()));
    }

    private void recordOne(Principal owner, Created object, Timestamp now) {
        try {
            jdbc.sql("""
                    INSERT INTO owned_object (id, kind, owner_user, owner_team, parent_id, created_at, expires_at)
                    SELECT :id, :kind, :user, :team, :parent, :created, :expires
                    WHERE NOT EXISTS (SELECT 1 FROM owned_object WHERE id = :id)""")
                    .param("id", object.id()).param("kind", object.kind().name())
                    .param("user", owner.user()).param("team", owner.team()).param("parent", object.parentId())
                    .param("created", now).param("expires", object.expiresAt() == null ? null : Timestamp.from(object.expiresAt()))
                    .update();
        } catch (DuplicateKeyException concurrentInsert) {
            // Another request recorded the same id first; the first owner stands.
        }
    }

    public Optional<OwnedObject> find(String id) {
        return jdbc.sql("SELECT * FROM owned_object WHERE id = :id").param("id", id).query(JdbcOwnershipStore::map).optional();
    }

    /**
     * The records of those ids that are on record: live ones read lately from memory ({@link LiveRecords}), the others
     * from the database in batches, so a long id list stays one statement per batch.
     */
    public List<OwnedObject> findAll(Collection<String> ids) {
        List<OwnedObject> found = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        for (String id : new LinkedHashSet<>(ids)) {
            OwnedObject kept = live.get(id);
            if (kept != null) {
                found.add(kept);
            } else {
                unread.add(id);
            }
        }
        for (int from = 0; from < unread.size(); from += FIND_BATCH) {
            List<OwnedObject> read = jdbc.sql("SELECT * FROM owned_object WHERE id IN (:ids)")
                    .param("ids", unread.subList(from, Math.min(unread.size(), from + FIND_BATCH))).query(JdbcOwnershipStore::map).list();
            read.forEach(live::keep);
            found.addAll(read);
        }
        return found;
    }

    /**
     * Live (not deleted) objects of a kind, newest first, optionally of one team: read from the live range of the kind in
     * {@code owned_object_reapable}, so its cost is what is alive (containers, which the reaper deletes when idle).
     */
    public List<OwnedObject> live(ObjectKind kind, String team, int limit) {
        return jdbc.sql(LIVE_QUERY).param("kind", kind.name()).param("team", team).param("limit", limit).query(JdbcOwnershipStore::map).list();
    }

    /** Marks the object deleted; it stays on record so a reused id can never change hands. */
    public void markDeleted(String id) {
        jdbc.sql("UPDATE owned_object SET deleted_at = :now WHERE id = :id AND deleted_at IS NULL")
                .param("now", Timestamp.from(clock.instant()))
                .param("id", id)
                .update();
        live.forget(id);
    }

    /**
     * Live objects of a kind past {@code expiredBefore} (and, with {@code includeUndated}, those without expiry), soonest
     * expired first, then oldest. The order is spelled out as the columns of the index it is read from
     * ({@code owned_object_reapable}), the only form in which H2 reads an index in order rather than sorting, so both
     * databases read {@code limit} rows and stop, however many objects of the kind were ever recorded.
     */
    public List<OwnedObject> reapable(ObjectKind kind, Instant expiredBefore, boolean includeUndated, int limit) {
        return jdbc.sql(reapableQuery(includeUndated))
                .param("kind", kind.name()).param("before", Timestamp.from(expiredBefore)).param("limit", limit)
                .query(JdbcOwnershipStore::map).list();
    }

    static String reapableQuery(boolean includeUndated) {
        return "SELECT * FROM owned_object WHERE kind = :kind AND deleted_at IS NULL AND "
                + (includeUndated ? "(expires_at < :before OR expires_at IS NULL)" : "expires_at < :before")
                + " ORDER BY kind, deleted_at, expires_at, created_at LIMIT :limit";
    }

    /**
     * Claims an object for one reaper until {@code until}; false when another holds a live claim. The
     * conditional update is atomic in the database, so two replicas never both win.
     */
    public boolean claim(String id, Instant until) {
        return jdbc.sql("""
                        UPDATE owned_object SET claimed_until = :until
                        WHERE id = :id AND deleted_at IS NULL AND (claimed_until IS NULL OR claimed_until < :now)""")
                .param("until", Timestamp.from(until)).param("id", id).param("now", Timestamp.from(clock.instant()))
                .update() == 1;
    }

    private static OwnedObject map(ResultSet row, int rowNumber) throws SQLException {
        return new OwnedObject(row.getString("id"), ObjectKind.valueOf(row.getString("kind")),
                row.getString("owner_user"), row.getString("owner_team"), row.getString("parent_id"),
                instant(row.getTimestamp("created_at")), instant(row.getTimestamp("expires_at")),
                instant(row.getTimestamp("deleted_at")));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
