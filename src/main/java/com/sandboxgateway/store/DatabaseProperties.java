package com.sandboxgateway.store;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.sandboxgateway.api.Setting;

/**
 * The database as the request path sees it ({@link FailFastDataSource}); where it is, and its pool, are
 * {@code spring.datasource.*}.
 *
 * @param probeInterval while the database cannot be reached, how often one request tries it again; the others are
 *        answered at once ({@code 503 state_unavailable}, audit records to the spool)
 */
@ConfigurationProperties("gateway.database")
record DatabaseProperties(@DefaultValue("1s") Duration probeInterval) {

    DatabaseProperties {
        Setting.positive(probeInterval, "gateway.database.probe-interval",
                "Set how often an unreachable database is tried again, e.g. 1s.");
    }
}
