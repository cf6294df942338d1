package com.sandboxgateway.auth;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.simple.JdbcClient;

/** The {@code gateway_key} table: run-time keys by id, found by the SHA-256 of the key. */
final class KeyStore {

    private static final String COLUMNS = """
            key_id, prefix, user_name, team, roles, created_at, created_by, expires_at, revoked_at, last_used_at,
            previous_valid_until, requests_per_minute, allowed_tools, turns_per_session""";

    private final JdbcClient jdbc;

    KeyStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A key found by one of its hashes, and until when that hash is accepted ({@code null}: no end). */
    record Match(RuntimeKey key, Instant acceptedUntil) {
    }

    void insert(RuntimeKey key, String sha256) {
        jdbc.sql("INSERT INTO gateway_key (" + COLUMNS + ", sha256) VALUES (:id, :prefix, :user, :team, :roles, :created, :by,"
                        + " :expires, NULL, NULL, NULL, :rpm, :tools, :turns, :sha256)")
                .param("id", key.id()).param("prefix", key.prefix()).param("user", key.user()).param("team", key.team())
                .param("roles", String.join(",", new TreeSet<>(key.roles()))).param("created", at(key.createdAt()))
                .param("by", key.createdBy()).param("expires", at(key.expiresAt()))
                .param("rpm", key.limits().requestsPerMinute()).param("tools", tools(key.limits()))
                .param("turns", key.limits().turnsPerSession()).param("sha256", sha256)
                .update();
    }

    /** The key a hash belongs to, current or (during a rotation's grace period) previous; revoked keys too. */
    Optional<Match> byHash(String sha256) {
        return jdbc.sql("SELECT " + COLUMNS + ", sha256 FROM gateway_key"
                        + " WHERE sha256 = :hash OR previous_sha256 = :hash")
                .param("hash", sha256)
                .query((row, n) -> {
                    RuntimeKey key = key(row);
                    Instant until = sha256.equals(row.getString("sha256")) ? key.expiresAt() : earliest(key.expiresAt(), key.previousValidUntil());
                    return new Match(key, until);
                })
                .optional();
    }

    Optional<RuntimeKey> byId(String id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM gateway_key WHERE key_id = :id").param("id", id)
                .query((row, n) -> key(row)).optional();
    }

    List<RuntimeKey> all() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM gateway_key ORDER BY created_at, key_id").query((row, n) -> key(row)).list();
    }

    /** Keys that are neither revoked nor expired, of one user or ({@code null}) of everyone. */
    List<RuntimeKey> live(String user, Instant now) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM gateway_key WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > :now)"
                        + (user == null ? "" : " AND user_name = :user") + " ORDER BY created_at, key_id")
                .params(user == null ? Map.of("now", at(now)) : Map.of("now", at(now), "user", user))
                .query((row, n) -> key(row)).list();
    }

    /** Gives a live key a new hash; the old one stays accepted until {@code previousUntil}. False for a revoked key. */
    boolean rotate(String id, String sha256, String prefix, Instant previousUntil) {
        return jdbc.sql("""
                        UPDATE gateway_key SET previous_sha256 = sha256, previous_valid_until = :until, sha256 = :sha256, prefix = :prefix
                        WHERE key_id = :id AND revoked_at IS NULL""")
                .param("id", id).param("sha256", sha256).param("prefix", prefix).param("until", at(previousUntil))
                .update() == 1;
    }

    /** Revokes a key (both its hashes); false when it was revoked already. */
    boolean revoke(String id, Instant now) {
        return jdbc.sql("UPDATE gateway_key SET revoked_at = :now WHERE key_id = :id AND revoked_at IS NULL")
                .param("id", id).param("now", at(now)).update() == 1;
    }

    boolean limit(String id, KeyLimits limits) {
        return jdbc.sql("""
                        UPDATE gateway_key SET requests_per_minute = :rpm, allowed_tools = :tools, turns_per_session = :turns
                        WHERE key_id = :id AND revoked_at IS NULL""")
                .param("id", id).param("rpm", limits.requestsPerMinute()).param("tools", tools(limits))
                .param("turns", limits.turnsPerSession()).update() == 1;
    }

    void used(String id, Instant now) {
        jdbc.sql("UPDATE gateway_key SET last_used_at = :now WHERE key_id = :id").param("id", id).param("now", at(now)).update();
    }

    private static RuntimeKey key(ResultSet row) throws SQLException {
        String tools = row.getString("allowed_tools");
        KeyLimits limits = new KeyLimits(row.getObject("requests_per_minute", Integer.class),
                tools == null ? null : names(tools), row.getObject("turns_per_session", Integer.class));
        return new RuntimeKey(row.getString("key_id"), row.getString("prefix"), row.getString("user_name"), row.getString("team"),
                names(row.getString("roles")), instant(row, "created_at"), row.getString("created_by"), instant(row, "expires_at"),
                instant(row, "revoked_at"), instant(row, "last_used_at"), instant(row, "previous_valid_until"), limits);
    }

    private static Set<String> names(String joined) {
        return Arrays.stream(joined.split(",")).filter(name -> !name.isEmpty()).collect(Collectors.toSet());
    }

    private static String tools(KeyLimits limits) {
        return limits.tools() == null ? null : String.join(",", new TreeSet<>(limits.tools()));
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime at(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
