package com.sandboxgateway.ownership;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may see an object.
 *
 * @param scope {@code user}: only the user who created it (default); {@code team}: everyone in that
 *        user's team
 * @param cacheTtl how long a replica trusts the record of a live object it read, for the ownership checks of the ids
 *        requests name (default 30 s; 0 reads each time): a deletion through another replica is seen within it
 */
@ConfigurationProperties("gateway.ownership")
public record OwnershipProperties(@DefaultValue("user") Scope scope, @DefaultValue("30s") Duration cacheTtl) {

    /** The circle of principals that share an object. */
    public enum Scope { USER, TEAM }
}
