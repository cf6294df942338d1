package com.sandboxgateway.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.support.LocalPostgres;

/**
 * The reaper's read takes one batch of the live objects of a kind, in the order of an index that holds them, rather than
 * every object of the kind ever recorded (deleted ones stay on record): its cost is the batch, not the table. Proved by
 * what each store returns, and on PostgreSQL by the plan it makes for the statement the store runs (the embedded store
 * reads a range of its map of live objects, which holds nothing else).
 */
class ReapableQueryTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Principal ALICE = new Principal("alice", "analytics", Set.of("user"));
    private static final int BATCH = 100;
    private static final OwnershipProperties SCOPE = new OwnershipProperties(OwnershipProperties.Scope.USER, Duration.ZERO);

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void shouldReadOneBatchOfLiveObjectsInTheIndexOrder(String database) {
        DataSource dataSource = migrated(database);
        JdbcClient jdbc = JdbcClient.create(dataSource);
        OwnershipStore store = OwnershipStore.of(jdbc, dataSource, Clock.fixed(NOW, ZoneOffset.UTC), SCOPE);
        var recorded = new Object() {
            /** {@code n} objects of a kind, recorded in batches of {@value #BATCH} a second apart from {@code age} ago. */
            void record(String prefix, int n, ObjectKind kind, Instant expiresAt, Duration age) {
                for (int from = 0; from < n; from += BATCH) {
                    Clock createdAt = Clock.fixed(NOW.minus(age).plusSeconds(from / BATCH), ZoneOffset.UTC);
                    OwnershipStore.of(jdbc, dataSource, createdAt, SCOPE).recordAll(ALICE, IntStream.range(from, Math.min(n, from + BATCH))
                            .mapToObj(i -> new OwnershipStore.Created(prefix + i, kind, null, expiresAt)).toList());
                }
            }
        };

        // 2,000 containers no longer live and 1,000 live ones recorded after them; 1,000 files still to expire, 5
        // expired, 3 expired and deleted already.
        recorded.record("cntr_gone", 2_000, ObjectKind.CONTAINER, null, Duration.ofHours(2));
        recorded.record("cntr_live", 1_000, ObjectKind.CONTAINER, null, Duration.ofHours(1));
        recorded.record("file-later", 1_000, ObjectKind.FILE, NOW.plus(Duration.ofDays(1)), Duration.ofHours(3));
        recorded.record("file-expired", 5, ObjectKind.FILE, NOW.minusSeconds(60), Duration.ofHours(3));
        recorded.record("file-deleted", 3, ObjectKind.FILE, NOW.minusSeconds(120), Duration.ofHours(3));
        IntStream.range(0, 2_000).forEach(i -> store.markDeleted("cntr_gone" + i));
        IntStream.range(0, 3).forEach(i -> store.markDeleted("file-deleted" + i));

        List<OwnedObject> containers = store.reapable(ObjectKind.CONTAINER, NOW, true, BATCH);
        assertThat(containers).as("the oldest live ones: the first batch recorded after those gone")
                .extracting(OwnedObject::id).containsExactlyInAnyOrder(IntStream.range(0, BATCH).mapToObj(i -> "cntr_live" + i).toArray(String[]::new));
        assertThat(store.reapable(ObjectKind.FILE, NOW, false, BATCH)).extracting(OwnedObject::id)
                .containsExactlyInAnyOrder(IntStream.range(0, 5).mapToObj(i -> "file-expired" + i).toArray(String[]::new));

        assertThat(store.live(ObjectKind.CONTAINER, "analytics", 10)).as("the admin's list: the newest live ones")
                .hasSize(10).allSatisfy(object -> assertThat(object.id()).matches("cntr_live9[0-9][0-9]"));
        if (database.equals("postgres")) {
            jdbc.sql("ANALYZE owned_object").update();
            String live = jdbc.sql("EXPLAIN " + JdbcOwnershipStore.LIVE_QUERY).param("kind", ObjectKind.CONTAINER.name())
                    .param("team", "analytics").param("limit", 10).query(String.class).list().toString();
            assertThat(live).as("the live range of the kind").containsPattern("Index Cond: .*kind.*AND \\(deleted_at IS NULL\\)");
            for (boolean undated : new boolean[] {true, false}) {
                // PostgreSQL reads the index range of the live objects of the kind (the deleted ones are outside it), in
                // order, or sorts what that range holds when it judges it small.
                assertThat(plan(jdbc, undated)).as("plan, undated %s", undated).contains("owned_object_reapable")
                        .containsPattern("Index Cond: .*kind.*AND \\(deleted_at IS NULL\\)").doesNotContain("Seq Scan");
            }
        }
    }

    private static String plan(JdbcClient jdbc, boolean undated) {
        return String.join("\n", jdbc.sql("EXPLAIN " + JdbcOwnershipStore.reapableQuery(undated))
                .param("kind", (undated ? ObjectKind.CONTAINER : ObjectKind.FILE).name()).param("before", Timestamp.from(NOW)).param("limit", BATCH)
                .query(String.class).list());
    }

    private static DataSource migrated(String database) {
        DataSource dataSource;
        String schema = null;
        if (database.equals("h2")) {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
            dataSource = h2;
        } else {
            schema = "reapable_query_test";
            LocalPostgres.recreateSchema(schema);
            PGSimpleDataSource postgres = new PGSimpleDataSource();
            postgres.setUser("postgres");
            // The tables are small: PostgreSQL would read them whole, as it may for a few thousand rows. What matters is
            // which index range serves each query, which its connections are asked to show.
            postgres.setURL(LocalPostgres.URL + "?currentSchema=" + schema + "&options=-c%20enable_seqscan%3Doff");
            dataSource = postgres;
        }
        var flyway = Flyway.configure().dataSource(dataSource);
        if (schema != null) {
            flyway.schemas(schema);
        }
        flyway.load().migrate();
        return dataSource;
    }
}
