package com.sandboxgateway.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;

class OwnershipTest {

    private static final Principal ALICE = new Principal("alice", "analytics", Set.of("user"));
    private static final Principal CAROL = new Principal("carol", "analytics", Set.of("user"));
    private static final Principal BOB = new Principal("bob", "finance", Set.of("user"));

    private OwnershipStore store;

    @BeforeEach
    void freshStore() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(dataSource).load().migrate();
        store = new OwnershipStore(JdbcClient.create(dataSource), Clock.systemUTC());
    }

    @Test
    void shouldShowAnObjectOnlyToItsCreatorUnderUserScope() {
        Ownership ownership = new Ownership(store, new OwnershipProperties(OwnershipProperties.Scope.USER));
        store.record("file-1", ObjectKind.FILE, ALICE, null, null);

        assertThat(ownership.visible("file-1", ALICE)).isPresent();
        assertThat(ownership.visible("file-1", CAROL)).isEmpty();
        assertThat(ownership.visible("file-1", BOB)).isEmpty();
    }

    @Test
    void shouldShowAnObjectToTheWholeTeamUnderTeamScope() {
        Ownership ownership = new Ownership(store, new OwnershipProperties(OwnershipProperties.Scope.TEAM));
        store.record("file-1", ObjectKind.FILE, ALICE, null, null);

        assertThat(ownership.visible("file-1", CAROL)).isPresent();
        assertThat(ownership.visible("file-1", BOB)).isEmpty();
        assertThat(ownership.visibleIds(List.of("file-1", "file-unknown"), CAROL)).containsExactly("file-1");
    }

    @Test
    void shouldKeepTheFirstOwnerAndForgetDeletedObjects() {
        Ownership ownership = new Ownership(store, new OwnershipProperties(OwnershipProperties.Scope.USER));
        store.record("cntr_1", ObjectKind.CONTAINER, ALICE, null, null);
        store.record("cntr_1", ObjectKind.CONTAINER, BOB, null, null);

        assertThat(ownership.visible("cntr_1", BOB)).isEmpty();
        store.markDeleted("cntr_1");
        assertThat(ownership.visible("cntr_1", ALICE)).isEmpty();
        assertThat(store.find("cntr_1")).hasValueSatisfying(object -> assertThat(object.ownerUser()).isEqualTo("alice"));
    }
}
