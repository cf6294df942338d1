package com.sandboxgateway.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.support.MovableClock;

class OwnershipTest {

    private static final Principal ALICE = new Principal("alice", "analytics", Set.of("user"));
    private static final Principal CAROL = new Principal("carol", "analytics", Set.of("user"));
    private static final Principal BOB = new Principal("bob", "finance", Set.of("user"));
    private static final OwnershipProperties USER_SCOPE = new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ZERO);

    private JdbcClient postgres;

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void shouldShowAnObjectOnlyToItsCreatorUnderUserScope(String database) {
        OwnershipStore store = store(database, Clock.systemUTC(), Duration.ZERO);
        Ownership ownership = new Ownership(store, new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ZERO));
        store.record("file-1", ObjectKind.FILE, ALICE, null, null);

        assertThat(ownership.visible("file-1", ALICE)).isPresent();
        assertThat(ownership.visible("file-1", CAROL)).isEmpty();
        assertThat(ownership.visible("file-1", BOB)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void shouldShowAnObjectToTheWholeTeamUnderTeamScope(String database) {
        OwnershipStore store = store(database, Clock.systemUTC(), Duration.ZERO);
        Ownership ownership = new Ownership(store, new OwnershipProperties(OwnershipProperties.Scope.TEAM, Duration.ZERO));
        store.record("file-1", ObjectKind.FILE, ALICE, null, null);

        assertThat(ownership.visible("file-1", CAROL)).isPresent();
        assertThat(ownership.visible("file-1", BOB)).isEmpty();
        assertThat(ownership.visibleIds(List.of("file-1", "file-unknown"), CAROL)).containsExactly("file-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void shouldKeepTheFirstOwnerAndForgetDeletedObjects(String database) {
        OwnershipStore store = store(database, Clock.systemUTC(), Duration.ZERO);
        Ownership ownership = new Ownership(store, new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ZERO));
        store.record("cntr_1", ObjectKind.CONTAINER, ALICE, null, null);
        store.record("cntr_1", ObjectKind.CONTAINER, BOB, null, null);

        assertThat(ownership.visible("cntr_1", BOB)).isEmpty();
        store.markDeleted("cntr_1");
        assertThat(ownership.visible("cntr_1", ALICE)).isEmpty();
        assertThat(store.find("cntr_1")).hasValueSatisfying(object -> assertThat(object.ownerUser()).isEqualTo("alice"));
        assertThat(store.live(ObjectKind.CONTAINER, null, 10)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void shouldRecordAnAnswersObjectsTogetherKeepingEachIdsFirstOwner(String database) {
        recordTogetherKeepingFirstOwners(store(database, Clock.systemUTC(), Duration.ZERO));
    }

    /** H2 outside its PostgreSQL mode (no {@code ON CONFLICT}) keeps the records in its file's maps just the same. */
    @Test
    void shouldKeepEachIdsFirstOwnerOnAnH2UrlOutsideThePostgreSqlMode() {
        JdbcDataSource plain = new JdbcDataSource();
        plain.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(plain).load().migrate();

        recordTogetherKeepingFirstOwners(OwnershipStore.of(JdbcClient.create(plain), plain, Clock.systemUTC(), USER_SCOPE));
    }

    /**
     * A replica of the relational store trusts a live record it read for the cache's time to live: an owner never
     * changes, and this replica's own deletion is seen at once; another replica's (here: the row changed behind its
     * back) once the time has passed. Ids not on record are not kept, so an object recorded after a miss is found at once.
     */
    @Test
    void shouldTrustALiveRecordItReadForTheCacheTtl() {
        MovableClock clock = new MovableClock(Instant.parse("2026-12-02T10:00:00Z"));
        OwnershipProperties properties = new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ofSeconds(10));
        OwnershipStore caching = store("postgres", clock, properties.cacheTtl());
        Ownership ownership = new Ownership(caching, properties);
        caching.record("file-1", ObjectKind.FILE, ALICE, null, null);
        caching.record("file-2", ObjectKind.FILE, ALICE, null, null);

        assertThat(ownership.visibleIds(List.of("file-1", "file-2", "file-3"), ALICE)).containsExactlyInAnyOrder("file-1", "file-2");
        postgres.sql("UPDATE owned_object SET deleted_at = CURRENT_TIMESTAMP WHERE id = 'file-1'").update();
        caching.markDeleted("file-2");
        caching.record("file-3", ObjectKind.FILE, ALICE, null, null);
        assertThat(ownership.visibleIds(List.of("file-1", "file-2", "file-3"), ALICE)).containsExactlyInAnyOrder("file-1", "file-3");
        assertThat(ownership.visibleIds(List.of("file-1", "file-3"), BOB)).isEmpty();

        clock.advance(Duration.ofSeconds(11));
        assertThat(ownership.visibleIds(List.of("file-1", "file-2", "file-3"), ALICE)).containsExactly("file-3");
    }

    /**
     * A fresh store: the embedded one on a new in-memory H2 database, or the relational one on a new PostgreSQL schema
     * (kept in {@link #postgres} for the test to change behind the store's back).
     */
    private OwnershipStore store(String database, Clock clock, Duration cacheTtl) {
        if (database.equals("h2")) {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
            Flyway.configure().dataSource(h2).load().migrate();
            OwnershipStore store = OwnershipStore.of(JdbcClient.create(h2), h2, clock, USER_SCOPE);
            assertThat(store).isInstanceOf(EmbeddedOwnershipStore.class);
            return store;
        }
        LocalPostgres.recreateSchema("ownership_test");
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUser("postgres");
        dataSource.setURL(LocalPostgres.URL + "?currentSchema=ownership_test");
        Flyway.configure().dataSource(dataSource).schemas("ownership_test").load().migrate();
        postgres = JdbcClient.create(dataSource);
        OwnershipStore store = OwnershipStore.of(postgres, dataSource, clock,
                new OwnershipProperties(OwnershipProperties.Scope.USER, cacheTtl));
        assertThat(store).isInstanceOf(JdbcOwnershipStore.class);
        return store;
    }

    private static void recordTogetherKeepingFirstOwners(OwnershipStore store) {
        store.record("cntr_1", ObjectKind.CONTAINER, BOB, null, null);

        store.recordAll(ALICE, List.of(new OwnershipStore.Created("resp_1", ObjectKind.RESPONSE, null, null),
                new OwnershipStore.Created("ci_1", ObjectKind.ITEM, "resp_1", null),
                new OwnershipStore.Created("cntr_1", ObjectKind.CONTAINER, null, null),
                new OwnershipStore.Created("cfile_1", ObjectKind.CONTAINER_FILE, "cntr_1", null),
                new OwnershipStore.Created("ci_1", ObjectKind.CONTAINER_FILE, "cntr_9", null)));

        assertThat(store.findAll(List.of("resp_1", "ci_1", "cntr_1", "cfile_1"))).extracting(OwnedObject::id, OwnedObject::ownerUser,
                OwnedObject::kind, OwnedObject::parentId).containsExactlyInAnyOrder(
                tuple("resp_1", "alice", ObjectKind.RESPONSE, null), tuple("ci_1", "alice", ObjectKind.ITEM, "resp_1"),
                tuple("cntr_1", "bob", ObjectKind.CONTAINER, null), tuple("cfile_1", "alice", ObjectKind.CONTAINER_FILE, "cntr_1"));
    }
}
