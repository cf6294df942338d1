package com.sandboxgateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import com.sandboxgateway.support.LocalPostgres;

/**
 * Which databases take {@code ON CONFLICT DO NOTHING}: the writes made once by id (audit records, owner rows, charges)
 * skip their look-up before the insert only where it is known. H2's metadata URL leaves out the {@code ;MODE=}
 * setting, so the gateway's default URL was once taken for plain H2 and paid a look-up per write. Only PostgreSQL
 * combines writes into one statement (an {@code INSERT} inside {@code WITH}, a locking {@code SELECT} as an insert's rows).
 */
class SqlDialectTest {

    @Test
    void shouldTakeOnConflictOnH2InItsPostgreSqlModeAsTheGatewayConfiguresIt() {
        assertThat(SqlDialect.of(h2(";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH")))
                .isEqualTo(new SqlDialect(true, false));
    }

    @Test
    void shouldNotTakeOnConflictOnH2OutsideThePostgreSqlMode() {
        assertThat(SqlDialect.of(h2("")).onConflict()).isFalse();
        assertThat(SqlDialect.of(h2(";MODE=MySQL")).onConflict()).isFalse();
    }

    @Test
    void shouldTakeOnConflictOnPostgreSql() {
        PGSimpleDataSource postgres = new PGSimpleDataSource();
        postgres.setURL(LocalPostgres.URL);
        postgres.setUser("postgres");
        assertThat(SqlDialect.of(postgres)).isEqualTo(new SqlDialect(true, true));
    }

    private static JdbcDataSource h2(String settings) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + settings);
        return h2;
    }
}
