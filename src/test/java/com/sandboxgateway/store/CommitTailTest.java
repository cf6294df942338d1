package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

import com.sandboxgateway.support.LocalPostgres;

/**
 * Writes left to the transaction's last statement on PostgreSQL: each learns, by the time its group committed, whether
 * its row was new, as it would have from an insert of its own; the statement commits the transaction, unless what it
 * was to return is missing.
 */
class CommitTailTest {

    private static final String SCHEMA = "commit_tail_test";
    private static PGSimpleDataSource postgres;
    private static JdbcClient jdbc;
    private static TransactionTemplate transactions;
    private static GroupCommit commits;

    @BeforeAll
    static void table() {
        postgres = new PGSimpleDataSource();
        postgres.setURL(LocalPostgres.URL);
        postgres.setUser("postgres");
        JdbcClient admin = JdbcClient.create(postgres);
        admin.sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE").update();
        admin.sql("CREATE SCHEMA " + SCHEMA).update();
        admin.sql("CREATE TABLE " + SCHEMA + ".charge (id VARCHAR(64) PRIMARY KEY, amount BIGINT NOT NULL)").update();
        postgres.setURL(LocalPostgres.URL + "?currentSchema=" + SCHEMA);
        jdbc = JdbcClient.create(postgres);
        transactions = new TransactionTemplate(new DataSourceTransactionManager(postgres));
        commits = new GroupCommit(transactions, new JdbcTemplate(postgres), SqlDialect.of(postgres));
        jdbc.sql("INSERT INTO charge (id, amount) VALUES ('held', 1)").update();
    }

    @Test
    void shouldTellEachRowLeftToTheTailWhetherItWasNew() {
        List<Boolean> fresh = commits.commit(List.of(charge("new", 5), charge("new", 7), charge("held", 9), charge("other", 3)));

        assertThat(fresh).containsExactly(true, false, false, true);
        assertThat(jdbc.sql("SELECT id || '=' || amount FROM charge WHERE id IN ('held', 'new', 'other') ORDER BY id").query(String.class).list())
                .containsExactly("held=1", "new=5", "other=3");
    }

    @Test
    void shouldRunBeforeItsStatementWouldPassPostgreSqlsParameterLimit() {
        List<GroupCommit.Write> many = IntStream.range(0, 40_000).mapToObj(i -> (GroupCommit.Write) charge("many-" + i, i)).toList();

        assertThat(commits.commit(many)).hasSize(40_000).containsOnly(true);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM charge WHERE id LIKE 'many-%'").query(Long.class).single()).isEqualTo(40_000);
    }

    @Test
    void shouldCommitInTheStatementThatEndsTheTransactionAndTakeNoRowAfterIt() {
        TransactionState afterEnd = transactions.execute(status -> {
            commits.tail().insert("charge", "id, amount", List.of("ended", 2));
            boolean ended = commits.tail().end(List.of(new Sql("touched AS (UPDATE charge SET amount = amount WHERE id = ").param("held")
                    .add(" RETURNING id)")), "touched");
            assertThat(ended).isTrue();
            assertThatThrownBy(() -> commits.tail().insert("charge", "id, amount", List.of("too late", 3)))
                    .isInstanceOf(IllegalStateException.class);
            return transactionState();
        });

        // Nothing left open for Spring's commit: pgjdbc sends a commit only for a transaction still open.
        assertThat(afterEnd).isEqualTo(TransactionState.IDLE);
        assertThat(jdbc.sql("SELECT amount FROM charge WHERE id = 'ended'").query(Long.class).single()).isEqualTo(2);
    }

    @Test
    void shouldCommitNothingWhereTheItemItWasToReturnReturnedNoRow() {
        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
            commits.tail().insert("charge", "id, amount", List.of("unmade", 2));
            boolean ended = commits.tail().end(List.of(new Sql("touched AS (UPDATE charge SET amount = amount WHERE id = ").param("absent")
                    .add(" RETURNING id)")), "touched");
            assertThat(ended).isFalse();
            assertThat(transactionState()).isEqualTo(TransactionState.FAILED);
            throw new GroupCommit.Moved("the caller rolls back");
        })).isInstanceOf(GroupCommit.Moved.class);

        assertThat(jdbc.sql("SELECT COUNT(*) FROM charge WHERE id = 'unmade'").query(Long.class).single()).isZero();
    }

    /** The state pgjdbc holds of the transaction this thread runs. */
    private static TransactionState transactionState() {
        try {
            return DataSourceUtils.getConnection(postgres).unwrap(BaseConnection.class).getTransactionState();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
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
