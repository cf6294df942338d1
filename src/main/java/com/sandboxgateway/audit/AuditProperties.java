package com.sandboxgateway.audit;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
 * @param signingKey the Ed25519 key that signs checkpoints: a PKCS#8 PEM or the base64 of the 32-byte
 *        seed, or {@code file:/path} to read either from a file (e.g. {@code GATEWAY_AUDIT_SIGNING_KEY});
 *        empty: no checkpoints
 * @param logOrigin the log's name: the first line of every checkpoint and the signing key's name
 * @param checkpointInterval how often the tree head is signed when records were added since the last checkpoint
 * @param witness where checkpoints are published besides the database
 */
@ConfigurationProperties("gateway.audit")
public record AuditProperties(@DefaultValue("./data/audit-spool") Path spoolDir, @DefaultValue("64KB") DataSize maxOutputSize,
                       Duration retention, @DefaultValue("5s") Duration replayInterval, String signingKey,
                       @DefaultValue("sandbox-gateway/audit") String logOrigin, @DefaultValue("5m") Duration checkpointInterval,
                       @DefaultValue Witness witness) {

    /** The output cap in characters of the JSON kept (bytes and characters coincide for ASCII logs). */
    public int maxOutputChars() {
        return (int) Math.min(Integer.MAX_VALUE, maxOutputSize.toBytes());
    }

    /**
     * Witnesses: each checkpoint is also appended to a file and POSTed to URLs the database's operator
     * cannot rewrite.
     *
     * @param file an append-only file that gets every signed checkpoint, fsync'd; empty: none
     * @param urls endpoints that get each signed checkpoint as a {@code text/plain} POST (a SIEM, a witness service)
     * @param timeout how long one POST may take
     */
    public record Witness(Path file, @DefaultValue List<URI> urls, @DefaultValue("5s") Duration timeout) {
    }
}
