package com.sandboxgateway.ownership;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may see an object.
 *
 * @param scope {@code user}: only the user who created it (default); {@code team}: everyone in that
 *        user's team
 */
@ConfigurationProperties("gateway.ownership")
public record OwnershipProperties(@DefaultValue("user") Scope scope) {

    /** The circle of principals that share an object. */
    public enum Scope { USER, TEAM }
}
