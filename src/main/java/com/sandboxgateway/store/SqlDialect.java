package com.sandboxgateway.store;

import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * What the relational store's SQL may use beyond the common core.
 *
 * @param onConflict it takes {@code INSERT ... ON CONFLICT DO NOTHING}: PostgreSQL, and H2 in its PostgreSQL mode (the
 *        gateway's default URL). A write made once by id uses it, as a duplicate then fails no statement (on
 *        PostgreSQL a failed statement fails the whole transaction, and with it a group commit)
 */
public record SqlDialect(boolean onConflict) {

    /** The dialect of the database behind {@code dataSource}, read from its metadata once. */
    public static SqlDialect of(DataSource dataSource) {
        try {
            return new SqlDialect(JdbcUtils.extractDatabaseMetaData(dataSource, meta -> meta.getDatabaseProductName().equals("PostgreSQL")
                    || meta.getURL().toUpperCase(Locale.ROOT).contains(";MODE=POSTGRESQL")));
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("cannot read which database the gateway writes to", e);
        }
    }
}
