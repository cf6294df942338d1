package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.support.LocalPostgres;

/**
 * Writes left to the transaction's last statement on PostgreSQL: each learns, by the time its group committed, whether
 * its row was new, as it would have from an insert of its own.
 */
class CommitTailTest {

    private static final String SCHEMA = "commit_tail_test";
    private static JdbcClient jdbc;
    private static GroupCommit commits;

    @BeforeAll
    static void table() {
        PGSimpleDataSource postgres = new PGSimpleDataSource();
        postgres.setURL(LocalPostgres.URL);
        postgres.setUser("postgres");
        JdbcClient admin = JdbcClient.create(postgres);
        admin.sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE").update();
        admin.sql("CREATE SCHEMA " + SCHEMA).update();
        admin.sql("CREATE TABLE " + SCHEMA + ".charge (id VARCHAR(64) PRIMARY KEY, amount BIGINT NOT NULL)").update();
        postgres.setURL(LocalPostgres.URL + "?currentSchema=" + SCHEMA);
        jdbc = JdbcClient.create(postgres);
        commits = new GroupCommit(new TransactionTemplate(new DataSourceTransactionManager(postgres)), jdbc, SqlDialect.of(postgres));
        jdbc.sql("INSERT INTO charge (id, amount) VALUES ('held', 1)").update();
    }

    @Test
    void shouldTellEachRowLeftToTheTailWhetherItWasNew() {
        List<Boolean> fresh = commits.commit(List.of(charge("new", 5), charge("new", 7), charge("held", 9), charge("other", 3)));

        assertThat(fresh).containsExactly(true, false, false, true);
        assertThat(jdbc.sql("SELECT id || '=' || amount FROM charge ORDER BY id").query(String.class).list())
                .containsExactly("held=1", "new=5", "other=3");
    }

    @Test
    void shouldRunBeforeItsStatementWouldPassPostgreSqlsParameterLimit() {
        List<GroupCommit.Write> many = IntStream.range(0, 40_000).mapToObj(i -> (GroupCommit.Write) charge("many-" + i, i)).toList();

        assertThat(commits.commit(many)).hasSize(40_000).containsOnly(true);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM charge WHERE id LIKE 'many-%'").query(Long.class).single()).isEqualTo(40_000);
    }

    /** A charge row made once by id, left to the tail. */
    private static GroupCommit.Deferrable charge(String id, long amount) {
        return new GroupCommit.Deferrable() {
            @Override
            public BooleanSupplier write(CommitTail tail) {
                return tail.insert("charge", "id, amount", List.of(id, amount));
            }

            @Override
            public boolean write() {
                throw new AssertionError("a deferrable write is left to the tail on PostgreSQL");
            }
        };
    }
}
