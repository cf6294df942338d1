package com.sandboxgateway.audit;

import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.MerkleProofs;
import com.sandboxgateway.audit.tlog.NoteVerifier;

import tools.jackson.databind.json.JsonMapper;

/**
 * The audit trail as readers outside this package see it (the review console): queries, one record by
 * its sequence number, records by code hash, whether one record's link in the chain holds and whether the
 * newest signed checkpoint proves it. Read only: records are written through {@link AuditLog}.
 */
@Component
public final class AuditTrail {

    private final AuditStore store;
    private final AuditChain chain;
    private final AuditTree tree;
    private final ObjectProvider<Checkpoints> checkpoints;

    AuditTrail(AuditStore store, JsonMapper json, AuditTree tree, ObjectProvider<Checkpoints> checkpoints) {
        this.store = store;
        this.chain = new AuditChain(json);
        this.tree = tree;
        this.checkpoints = checkpoints;
    }

    /** Records matching the query, in chain order. */
    public List<StoredRecord> query(AuditQuery query) {
        return store.query(query);
    }

    /** The flagged code blocks and shell calls matching the query, in chain order: what reviewers look at. */
    public List<StoredRecord> flaggedExecutions(AuditQuery query) {
        return store.flaggedExecutions(query);
    }

    /** The record at this place in the chain, unless retention removed it or it never existed. */
    public Optional<StoredRecord> record(long seq) {
        return store.query(new AuditQuery(null, null, null, null, null, null, null, null, seq - 1, 1)).stream()
                .filter(stored -> stored.seq() == seq).findFirst();
    }

    /** Up to {@code limit} records of code with this SHA-256 (lower-case hex), in chain order. */
    public List<StoredRecord> withCodeHash(String sha256, int limit) {
        return store.withCodeHash(sha256, limit);
    }

    /**
     * The records of a session around one of its records, in chain order: up to {@code around} before it,
     * the record itself and up to {@code around} after it (read by index, however long the session).
     */
    public List<StoredRecord> sessionAround(String session, long seq, int around) {
        return Stream.of(store.sessionBefore(session, seq, around).reversed(), List.of(seq), store.sessionAfter(session, seq, around)).flatMap(List::stream)
                .flatMap(place -> record(place).stream()).toList();
    }

    /**
     * Whether the record's own link holds: its hash covers its content and its predecessor's hash, and
     * that predecessor (when retention kept it) ends in the hash this record names.
     */
    public LinkStatus link(StoredRecord stored) {
        boolean contentMatches = chain.hashes(stored.prevHash(), stored.seq(), stored.record()).chainHash().equals(stored.hash());
        Optional<StoredRecord> previous = stored.seq() > 1 ? record(stored.seq() - 1) : Optional.empty();
        Boolean linksToPrevious = previous.map(before -> before.hash().equals(stored.prevHash()))
                .orElse(stored.seq() == 1 ? stored.prevHash().equals(AuditChain.GENESIS) : null);
        return new LinkStatus(contentMatches, linksToPrevious);
    }

    /**
     * Whether the newest signed checkpoint proves the record: its signature is checked with this gateway's
     * key (not trusted from the database), and the inclusion proof read from the tree's nodes must lead from
     * the leaf hash of the record's content, as it is now, to the signed root.
     */
    public TreeStatus treeStatus(StoredRecord stored) {
        byte[] leaf = chain.hashes(stored.prevHash(), stored.seq(), stored.record()).leafHash();
        String leafHash = Base64.getEncoder().encodeToString(leaf);
        Checkpoints signed = checkpoints.getIfAvailable();
        if (signed == null) {
            return new TreeStatus(leafHash, TreeStatus.State.CHECKPOINTS_OFF, null, null);
        }
        Optional<String> note = signed.latest();
        if (note.isEmpty()) {
            return new TreeStatus(leafHash, TreeStatus.State.NO_CHECKPOINT, null, null);
        }
        Checkpoint checkpoint;
        try {
            checkpoint = Checkpoint.parse(NoteVerifier.parse(signed.verifierKey()).open(note.get()));
        } catch (IllegalArgumentException e) {
            return new TreeStatus(leafHash, TreeStatus.State.FAILED, null,
                    "the newest checkpoint in the database does not verify with this gateway's key (" + e.getMessage() + ")");
        }
        long size = checkpoint.size();
        long leaves = tree.head(checkpoint.origin()).size();
        if (size > leaves) {
            return new TreeStatus(leafHash, TreeStatus.State.FAILED, size, "the tree holds " + leaves + " leaves, fewer than the "
                    + size + " the checkpoint signed: records were removed from it");
        }
        if (stored.leafHash() == null) {
            return new TreeStatus(leafHash, TreeStatus.State.NOT_YET_COVERED, size, null);
        }
        InclusionProof proof;
        try {
            proof = tree.inclusion(stored.seq(), size);
        } catch (IllegalArgumentException e) {
            return new TreeStatus(leafHash, TreeStatus.State.NOT_YET_COVERED, size, null);
        } catch (IllegalStateException e) {
            return new TreeStatus(leafHash, TreeStatus.State.FAILED, size, e.getMessage());
        }
        List<byte[]> path = proof.proof().stream().map(Base64.getDecoder()::decode).toList();
        return MerkleProofs.verifyInclusion(leaf, proof.leafIndex(), size, path, checkpoint.root())
                ? new TreeStatus(leafHash, TreeStatus.State.VERIFIED, size, null)
                : new TreeStatus(leafHash, TreeStatus.State.FAILED, size, "the leaf hash of its content does not lead to the signed "
                        + "root: the record or the tree was changed after the checkpoint");
    }

    /** The whole chain checked from its base; see {@code /actuator/audit/verify}. */
    public ChainVerification verify() {
        return store.verify();
    }

    /**
     * A record against the newest signed checkpoint.
     *
     * @param leafHash the leaf hash (base64) of the record's content as stored now, which proofs are about
     * @param treeSize the size of the tree the newest checkpoint signed; {@code null} without a usable one
     * @param problem what does not verify, for {@link State#FAILED}
     */
    public record TreeStatus(String leafHash, State state, Long treeSize, String problem) {

        public enum State {
            /** No signing key: no checkpoint pins any record. */
            CHECKPOINTS_OFF,
            /** None has been signed yet. */
            NO_CHECKPOINT,
            /** The record came after the newest checkpoint; the next one covers it. */
            NOT_YET_COVERED,
            /** Its inclusion proof verifies against the signed root. */
            VERIFIED,
            /** The checkpoint, the tree or the record does not hold. */
            FAILED
        }
    }

    /**
     * @param contentMatches the stored hash is the hash of the record's content and its predecessor's hash
     * @param linksToPrevious the predecessor's hash is the one this record names; {@code null} when
     *        retention removed the predecessor, so only a whole-chain check from the base can tell
     */
    public record LinkStatus(boolean contentMatches, Boolean linksToPrevious) {

        public boolean holds() {
            return contentMatches && !Boolean.FALSE.equals(linksToPrevious);
        }
    }
}
