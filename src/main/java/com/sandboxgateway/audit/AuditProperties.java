package com.sandboxgateway.audit;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The audit trail.
 *
 * @param spoolDir where records wait, fsync'd, while the database is unreachable
 * @param maxOutputSize outputs of one code block kept beyond this are cut (the record says so)
 * @param retention records older than this are deleted (the chain stays verifiable); empty keeps all
 * @param replayInterval how often a non-empty spool is offered to the database again
 */
@ConfigurationProperties("gateway.audit")
public record AuditProperties(@DefaultValue("./data/audit-spool") Path spoolDir, @DefaultValue("64KB") DataSize maxOutputSize,
                       Duration retention, @DefaultValue("5s") Duration replayInterval) {

    /** The output cap in characters of the JSON kept (bytes and characters coincide for ASCII logs). */
    public int maxOutputChars() {
        return (int) Math.min(Integer.MAX_VALUE, maxOutputSize.toBytes());
    }
}
