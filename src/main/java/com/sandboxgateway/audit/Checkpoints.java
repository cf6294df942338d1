package com.sandboxgateway.audit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.NoteSigner;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * Signs the audit tree's head as a C2SP checkpoint (a signed note naming the log, its size and its root),
 * keeps it, records it as an audit record of its own, and hands it to every witness. A witness that fails
 * is logged and counted; the checkpoint stands, and the next one reaches the witness again.
 */
final class Checkpoints {

    private static final Logger log = LoggerFactory.getLogger(Checkpoints.class);
    private static final String KEY_SETTING = "gateway.audit.signing-key";

    private final AuditTree tree;
    private final AuditLog auditLog;
    private final NoteSigner signer;
    private final List<CheckpointWitness> witnesses;
    private final JsonMapper json;
    private final Clock clock;
    private final Counter signed;
    private final MeterRegistry meters;

    /** @param meters gets {@code gateway.audit.checkpoints} and {@code gateway.audit.witness.failures} (by witness kind) */
    Checkpoints(AuditTree tree, AuditLog auditLog, NoteSigner signer, List<CheckpointWitness> witnesses, JsonMapper json,
                Clock clock, MeterRegistry meters) {
        this.tree = tree;
        this.auditLog = auditLog;
        this.signer = signer;
        this.witnesses = List.copyOf(witnesses);
        this.json = json;
        this.clock = clock;
        this.meters = meters;
        this.signed = Counter.builder(AuditMetrics.CHECKPOINTS).description("Audit tree heads signed by this replica")
                .register(meters);
    }

    /**
     * The signer of {@code gateway.audit.signing-key} (the key itself, or {@code file:/path}) named by
     * {@code gateway.audit.log-origin}.
     *
     * @throws IllegalStateException naming the setting, never showing the key, when it is not an Ed25519 key
     */
    static NoteSigner signer(AuditProperties properties) {
        String origin = properties.logOrigin();
        if (origin == null || !origin.matches("[^\\s+]+")) {
            throw new IllegalStateException("gateway.audit.log-origin must be one word without spaces or '+' (it names the log "
                    + "and its signing key), e.g. audit.example.com/sandbox-gateway");
        }
        String setting = properties.signingKey().strip();
        String key = setting.startsWith("file:") ? read(Path.of(setting.substring(5))) : setting;
        try {
            return NoteSigner.of(origin, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(KEY_SETTING + " is not a usable Ed25519 key (" + e.getMessage() + "); give a PKCS#8 "
                    + "PEM (openssl genpkey -algorithm ed25519) or the base64 of a 32-byte seed, directly or as file:/path");
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the file of " + KEY_SETTING + ", " + file + ": " + e.getClass().getSimpleName());
        }
    }

    /** The verifier key, in the signed-note form verifiers are configured with. */
    String verifierKey() {
        return signer.verifierKey();
    }

    /** The newest signed checkpoint, if one was made. */
    Optional<String> latest() {
        return tree.latestCheckpoint();
    }

    /**
     * Signs the tree head now (an admin's demand, or the schedule) unless the newest checkpoint covers it
     * already; answers the newest checkpoint.
     */
    String sign(String requestedBy) {
        Checkpoint head = tree.head(signer.name());
        Optional<String> latest = tree.latestCheckpoint();
        if (latest.isPresent() && size(latest.get()) >= head.size()) {
            return latest.get();
        }
        String note = signer.sign(head.body());
        if (!tree.save(head, note, clock.instant())) {
            return tree.latestCheckpoint().orElse(note);
        }
        signed.increment();
        auditLog.record(AuditRecord.policy(AuditRecord.Kind.CHECKPOINT, "checkpoint-" + head.size(), requestedBy, null, null,
                "signed", details(head, note), clock.instant()));
        publish(note);
        return note;
    }

    /** The schedule's turn: signs when records other than the newest checkpoint's own were added since it. */
    void signIfGrown() {
        try {
            long size = tree.head(signer.name()).size();
            long covered = tree.latestCheckpoint().map(Checkpoints::size).orElse(-1L);
            if (size > covered + 1) {
                sign("gateway");
            }
        } catch (RuntimeException e) {
            log.warn("Could not sign an audit checkpoint ({}); the next interval tries again", e.toString());
        }
    }

    private void publish(String note) {
        for (CheckpointWitness witness : witnesses) {
            try {
                witness.publish(note);
            } catch (IOException | RuntimeException e) {
                log.warn("Witness {} did not take the audit checkpoint: {}", witness.name(), e.getMessage());
                Counter.builder(AuditMetrics.WITNESS_FAILURES).description("Checkpoints a witness did not take")
                        .tag("witness", witness.name().split(" ")[0]).register(meters).increment();
            }
        }
    }

    private String details(Checkpoint head, String note) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("tree_size", head.size());
        details.put("root_hash", Base64.getEncoder().encodeToString(head.root()));
        details.put("note", note);
        return json.writeValueAsString(details);
    }

    private static long size(String note) {
        return Checkpoint.parse(note).size();
    }
}
