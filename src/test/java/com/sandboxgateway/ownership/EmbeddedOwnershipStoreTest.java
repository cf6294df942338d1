package com.sandboxgateway.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.store.H2Maps;

/** The embedded default's owner records, kept in the H2 file's own maps. */
class EmbeddedOwnershipStoreTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final Principal ALICE = new Principal("alice", "analytics", Set.of("user"));
    private static final OwnershipProperties SCOPE = new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ZERO);

    /** Kept in the file: a restart (the database closed and opened again) finds every record as it was left. */
    @Test
    void shouldKeepTheRecordsInTheDatabaseFileAcrossARestart(@TempDir Path directory) throws Exception {
        JdbcDataSource file = new JdbcDataSource();
        file.setURL("jdbc:h2:file:" + directory.resolve("gateway") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE");
        Flyway.configure().dataSource(file).load().migrate();
        OwnershipStore store;
        try (Connection held = file.getConnection()) {
            store = OwnershipStore.of(JdbcClient.create(file), file, CLOCK, SCOPE);
            store.recordAll(ALICE, List.of(new OwnershipStore.Created("cntr_1", ObjectKind.CONTAINER, null, null),
                    new OwnershipStore.Created("cfile_1", ObjectKind.CONTAINER_FILE, "cntr_1", null),
                    new OwnershipStore.Created("file-1", ObjectKind.FILE, null, NOW.minusSeconds(1)),
                    new OwnershipStore.Created("file-2", ObjectKind.FILE, null, NOW.minusSeconds(2))));
            store.markDeleted("file-2");
            assertThat(store.claim("cntr_1", NOW.plusSeconds(60))).isTrue();
        }

        try (Connection held = file.getConnection()) {
            assertThat(store.find("cfile_1")).contains(new OwnedObject("cfile_1", ObjectKind.CONTAINER_FILE, "alice", "analytics",
                    "cntr_1", NOW, null, null));
            assertThat(store.find("file-2")).hasValueSatisfying(object -> assertThat(object.deletedAt()).isEqualTo(NOW));
            assertThat(store.reapable(ObjectKind.FILE, NOW, false, 10)).extracting(OwnedObject::id).containsExactly("file-1");
            assertThat(store.reapable(ObjectKind.CONTAINER, NOW, true, 10)).extracting(OwnedObject::id).containsExactly("cntr_1");
            assertThat(store.claim("cntr_1", NOW.plusSeconds(60))).as("the claim kept").isFalse();
        }
    }

    /** Where H2 writes each commit at once ({@code WRITE_DELAY=0}), each owner record, deletion and claim is in the file at once. */
    @Test
    void shouldWriteEachChangeAtOnceWhereH2WritesEachCommitAtOnce(@TempDir Path directory) throws Exception {
        JdbcDataSource file = new JdbcDataSource();
        file.setURL("jdbc:h2:file:" + directory.resolve("gateway") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;WRITE_DELAY=0");
        Flyway.configure().dataSource(file).load().migrate();
        try (Connection held = file.getConnection()) {
            OwnershipStore store = OwnershipStore.of(JdbcClient.create(file), file, CLOCK, SCOPE);
            MVStore h2 = H2Maps.of(file, Function.<MVStore>identity()).orElseThrow().get();

            store.recordAll(ALICE, List.of(new OwnershipStore.Created("cntr_1", ObjectKind.CONTAINER, null, null)));
            assertThat(h2.hasUnsavedChanges()).as("unwritten after the record").isFalse();
            assertThat(store.claim("cntr_1", NOW.plusSeconds(60))).isTrue();
            assertThat(h2.hasUnsavedChanges()).as("unwritten after the claim").isFalse();
            store.markDeleted("cntr_1");
            assertThat(h2.hasUnsavedChanges()).as("unwritten after the deletion").isFalse();
        }
    }

    /** The rows an earlier version wrote to the table move into the maps on start, as they were, and leave the table. */
    @Test
    void shouldMoveTheRowsOfTheTableIntoTheMaps() {
        JdbcDataSource h2 = inMemory();
        JdbcClient jdbc = JdbcClient.create(h2);
        insert(jdbc, "cntr_old", ObjectKind.CONTAINER, null, null, NOW.plusSeconds(30));
        insert(jdbc, "file-gone", ObjectKind.FILE, NOW.minusSeconds(5), NOW.minusSeconds(1), null);
        insert(jdbc, "resp_old", ObjectKind.RESPONSE, null, null, null);

        OwnershipStore store = OwnershipStore.of(jdbc, h2, CLOCK, SCOPE);

        assertThat(jdbc.sql("SELECT COUNT(*) FROM owned_object").query(Long.class).single()).isZero();
        assertThat(store.findAll(List.of("cntr_old", "file-gone", "resp_old"))).containsExactlyInAnyOrder(
                new OwnedObject("cntr_old", ObjectKind.CONTAINER, "alice", "analytics", null, NOW.minusSeconds(3600), null, null),
                new OwnedObject("file-gone", ObjectKind.FILE, "alice", "analytics", null, NOW.minusSeconds(3600),
                        NOW.minusSeconds(5), NOW.minusSeconds(1)),
                new OwnedObject("resp_old", ObjectKind.RESPONSE, "alice", "analytics", null, NOW.minusSeconds(3600), null, null));
        assertThat(store.reapable(ObjectKind.CONTAINER, NOW, true, 10)).extracting(OwnedObject::id).containsExactly("cntr_old");
        assertThat(store.reapable(ObjectKind.FILE, NOW, false, 10)).as("deleted before the move").isEmpty();
        assertThat(store.claim("cntr_old", NOW.plusSeconds(60))).as("its reaper's claim moved with it").isFalse();
    }

    /**
     * An entry of the live index whose record never made it (a crash between the two writes) is dropped by the read
     * that meets it; the index holds only the reaped kinds, so the others cannot be listed.
     */
    @Test
    void shouldDropALiveEntryWithoutItsRecord() {
        JdbcDataSource h2 = inMemory();
        OwnershipStore store = OwnershipStore.of(JdbcClient.create(h2), h2, CLOCK, SCOPE);
        store.record("cntr_1", ObjectKind.CONTAINER, ALICE, null, null);
        var live = H2Maps.of(h2, EmbeddedOwnershipStore.Maps::open).orElseThrow().get().live();
        String orphan = live.firstKey().replace("cntr_1", "cntr_0");
        live.put(orphan, "cntr_0");

        assertThat(store.live(ObjectKind.CONTAINER, null, 10)).extracting(OwnedObject::id).containsExactly("cntr_1");
        assertThat(live.keySet()).hasSize(1).doesNotContain(orphan);
        assertThatThrownBy(() -> store.live(ObjectKind.RESPONSE, null, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    private static JdbcDataSource inMemory() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).load().migrate();
        return h2;
    }

    private static void insert(JdbcClient jdbc, String id, ObjectKind kind, Instant expiresAt, Instant deletedAt, Instant claimedUntil) {
        jdbc.sql("""
                        INSERT INTO owned_object (id, kind, owner_user, owner_team, created_at, expires_at, deleted_at, claimed_until)
                        VALUES (:id, :kind, 'alice', 'analytics', :created, :expires, :deleted, :claimed)""")
                .param("id", id).param("kind", kind.name()).param("created", Timestamp.from(NOW.minusSeconds(3600)))
                .param("expires", timestamp(expiresAt)).param("deleted", timestamp(deletedAt)).param("claimed", timestamp(claimedUntil))
                .update();
    }

    private static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
