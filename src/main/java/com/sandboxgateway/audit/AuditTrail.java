package com.sandboxgateway.audit;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * The audit trail as readers outside this package see it (the review console): queries, one record by
 * its sequence number, records by code hash, and whether one record's link in the chain holds. Read only:
 * records are written through {@link AuditLog}.
 */
@Component
public final class AuditTrail {

    private final JdbcAuditStore store;
    private final JdbcClient jdbc;
    private final AuditChain chain;

    AuditTrail(JdbcAuditStore store, JdbcClient jdbc, JsonMapper json) {
        this.store = store;
        this.jdbc = jdbc;
        this.chain = new AuditChain(json);
    }

    /** Records matching the query, in chain order. */
    public List<StoredRecord> query(AuditQuery query) {
        return store.query(query);
    }

    /** The record at this place in the chain, unless retention removed it or it never existed. */
    public Optional<StoredRecord> record(long seq) {
        return store.query(new AuditQuery(null, null, null, null, null, null, null, null, seq - 1, 1)).stream()
                .filter(stored -> stored.seq() == seq).findFirst();
    }

    /** Up to {@code limit} records of code with this SHA-256 (lower-case hex), in chain order. */
    public List<StoredRecord> withCodeHash(String sha256, int limit) {
        return jdbc.sql("SELECT seq FROM audit_record WHERE code_sha256 = :hash ORDER BY seq LIMIT :limit")
                .param("hash", sha256).param("limit", limit).query(Long.class).list().stream()
                .flatMap(seq -> record(seq).stream()).toList();
    }

    /**
     * The records of a session around one of its records, in chain order: up to {@code around} before it,
     * the record itself and up to {@code around} after it (read by index, however long the session).
     */
    public List<StoredRecord> sessionAround(String session, long seq, int around) {
        List<Long> before = jdbc.sql("SELECT seq FROM audit_record WHERE session_id = :session AND seq < :seq ORDER BY seq DESC LIMIT :n")
                .param("session", session).param("seq", seq).param("n", around).query(Long.class).list();
        List<Long> after = jdbc.sql("SELECT seq FROM audit_record WHERE session_id = :session AND seq > :seq ORDER BY seq LIMIT :n")
                .param("session", session).param("seq", seq).param("n", around).query(Long.class).list();
        return Stream.of(before.reversed(), List.of(seq), after).flatMap(List::stream)
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

    /** The whole chain checked from its base; see {@code /actuator/audit/verify}. */
    public ChainVerification verify() {
        return store.verify();
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
