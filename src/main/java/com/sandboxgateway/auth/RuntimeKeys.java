package com.sandboxgateway.auth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.sandboxgateway.api.Sha256;

/**
 * Gateway keys issued, rotated and revoked at run time. The database holds each key's SHA-256, never the
 * key; the plaintext exists only in the answer that issues it. Each replica caches what it read of a key
 * for {@link RuntimeKeyProperties#cacheTtl()} and drops it at once when told of a change, so a revoked key
 * is refused everywhere within that bound.
 */
public final class RuntimeKeys {

    /** Every run-time key starts so: other bearers are never looked up in the database. */
    static final String KEY_PREFIX = "sk-gw-rt-";
    private static final int SHOWN_PREFIX_LENGTH = KEY_PREFIX.length() + 4;
    private static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);

    private final KeyStore store;
    private final KeyChanges changes;
    private final Clock clock;
    private final long cacheTtlNanos;
    private final Duration rotationGrace;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Cached> byHash = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastUsedWritten = new ConcurrentHashMap<>();

    private record Cached(KeyStore.Match match, long loadedNanos) {
    }

    /** A key just issued or rotated: {@code plaintext} is shown to the admin once and kept nowhere. */
    public record Issued(RuntimeKey key, String plaintext) {
    }

    RuntimeKeys(KeyStore store, KeyChanges changes, RuntimeKeyProperties properties, Clock clock) {
        this.store = store;
        this.changes = changes;
        this.clock = clock;
        this.cacheTtlNanos = properties.cacheTtl().toNanos();
        this.rotationGrace = properties.rotationGrace();
        changes.subscribe(this::forget);
    }

    /**
     * The principal of a run-time key; empty when the bearer is not one.
     *
     * @throws InvalidCredentialsException for a key that was revoked or is no longer accepted
     */
    Optional<Principal> authenticate(String bearer) {
        if (!bearer.startsWith(KEY_PREFIX)) {
            return Optional.empty();
        }
        String hash = Sha256.hex(bearer);
        Cached cached = byHash.get(hash);
        if (cached == null || System.nanoTime() - cached.loadedNanos() > cacheTtlNanos) {
            Optional<KeyStore.Match> found = store.byHash(hash);
            if (found.isEmpty()) {
                byHash.remove(hash);
                return Optional.empty();
            }
            cached = new Cached(found.get(), System.nanoTime());
            byHash.put(hash, cached);
        }
        RuntimeKey key = cached.match().key();
        Instant now = clock.instant();
        if (key.revokedAt() != null) {
            throw new InvalidCredentialsException("This gateway key (" + key.prefix() + "…, id " + key.id() + ") was revoked at "
                    + key.revokedAt() + "; ask your platform team for a new one.");
        }
        Instant until = cached.match().acceptedUntil();
        if (until != null && !now.isBefore(until)) {
            throw new InvalidCredentialsException("This gateway key (id " + key.id() + ") is no longer accepted since " + until
                    + " (it expired, or a rotation replaced it and its grace period ended); use the current key.");
        }
        noteUse(key.id(), now);
        return Optional.of(key.principal());
    }

    /** A fresh key id, so the audit can name a key before it is issued. */
    public String newId() {
        return "key_" + HexFormat.of().formatHex(randomBytes(8));
    }

    /** Issues a new key under {@code id} (from {@link #newId()}); {@code expiresIn} {@code null}: it does not expire. */
    public Issued issue(String id, String user, String team, Set<String> roles, Duration expiresIn, KeyLimits limits,
                        String issuedBy) {
        String plaintext = newKey();
        Instant now = clock.instant();
        RuntimeKey key = new RuntimeKey(id, shownPrefix(plaintext), user, team,
                roles, now, issuedBy, expiresIn == null ? null : now.plus(expiresIn), null, null, null, limits);
        store.insert(key, Sha256.hex(plaintext));
        return new Issued(key, plaintext);
    }

    /**
     * Gives a key a new value; the old one stays accepted for {@code grace} ({@code null}: the configured
     * {@code rotation-grace}). Empty for an unknown or revoked key.
     */
    public Optional<Issued> rotate(String id, Duration grace) {
        String plaintext = newKey();
        Instant oldUntil = clock.instant().plus(grace == null ? rotationGrace : grace);
        if (!store.rotate(id, Sha256.hex(plaintext), shownPrefix(plaintext), oldUntil)) {
            return Optional.empty();
        }
        changed(id);
        return store.byId(id).map(key -> new Issued(key, plaintext));
    }

    /** Revokes a key on every replica (see the class comment for how fast). Empty for an unknown id. */
    public Optional<RuntimeKey> revoke(String id) {
        store.revoke(id, clock.instant());
        changed(id);
        return store.byId(id);
    }

    /** Replaces a key's limits. Empty for an unknown or revoked key. */
    public Optional<RuntimeKey> limit(String id, KeyLimits limits) {
        if (!store.limit(id, limits)) {
            return Optional.empty();
        }
        changed(id);
        return store.byId(id);
    }

    public Optional<RuntimeKey> find(String id) {
        return store.byId(id);
    }

    /** Every run-time key, revoked and expired ones included. */
    public List<RuntimeKey> all() {
        return store.all();
    }

    /** The principal of a user's oldest live key, if any. */
    Optional<Principal> principalOf(String user) {
        return store.live(user, clock.instant()).stream().findFirst().map(RuntimeKey::principal);
    }

    /** The principals of every key neither revoked nor expired. */
    List<Principal> live() {
        return store.live(null, clock.instant()).stream().map(RuntimeKey::principal).toList();
    }

    private void changed(String id) {
        forget(id);
        changes.publish(id);
    }

    /** Drops every cached hash of a key, so its next use reads the database. */
    private void forget(String id) {
        byHash.values().removeIf(cached -> cached.match().key().id().equals(id));
    }

    /** {@code last_used_at} is written at most once a minute per key and replica, not on every request. */
    private void noteUse(String id, Instant now) {
        Instant written = lastUsedWritten.get(id);
        if (written == null || Duration.between(written, now).compareTo(LAST_USED_RESOLUTION) >= 0) {
            lastUsedWritten.put(id, now);
            store.used(id, now);
        }
    }

    private String newKey() {
        return KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(32));
    }

    private static String shownPrefix(String plaintext) {
        return plaintext.substring(0, SHOWN_PREFIX_LENGTH);
    }

    private byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }
}
