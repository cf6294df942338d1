package com.sandboxgateway.ownership;

import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.StringDataType;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.store.H2Maps;

/**
 * The owner records of the embedded default, in two maps of the H2 file ({@link H2Maps}) rather than a table: an object
 * recorded costs one map entry (a reaped kind's live one a second, in the order the reaper reads), not a row with its
 * indexes, their undo-log entries and a statement. The embedded database serves one replica, so a record read needs no
 * cache, and a read-modify-write (a deletion, a reaper's claim) is atomic under this store's lock.
 */
final class EmbeddedOwnershipStore implements OwnershipStore {

    /** Sorts after every expiry ({@link #sortable} writes hex digits): an object without one is reaped last. */
    private static final String UNDATED = "~";
    private static final HexFormat HEX = HexFormat.of();

    private final H2Maps<Maps> maps;
    private final Clock clock;

    EmbeddedOwnershipStore(H2Maps<Maps> maps, Clock clock) {
        this.maps = maps;
        this.clock = clock;
    }

    /**
     * The owner records by id, and the live objects of the reaped kinds by kind, expiry, creation and id (their ids as
     * values): the index the reaper and the admin's list read a range of.
     */
    record Maps(MVMap<String, Entry> owned, MVMap<String, String> live) {

        static Maps open(MVStore store) {
            return new Maps(store.openMap("gateway.owned_object",
                            new MVMap.Builder<String, Entry>().keyType(StringDataType.INSTANCE).valueType(EntryType.INSTANCE)),
                    store.openMap("gateway.owned_object_live",
                            new MVMap.Builder<String, String>().keyType(StringDataType.INSTANCE).valueType(StringDataType.INSTANCE)));
        }
    }

    /** Moves into the maps the rows the table {@code owned_object} holds ({@link H2Maps#moveRows}). */
    EmbeddedOwnershipStore movedFrom(JdbcClient jdbc) {
        H2Maps.moveRows(jdbc, "owned_object", "id", row -> put(maps.get(), row.getString("id"), entry(row)));
        return this;
    }

    @Override
    public boolean writesInTransactions() {
        return false;
    }

    @Override
    public void recordAll(Principal owner, List<Created> objects) {
        Maps current = maps.get();
        Instant now = clock.instant();
        for (Created object : objects) {
            // Only a reaped kind writes something before its record (put): the others' putIfAbsent is the look.
            if (!object.kind().isReaped() || !current.owned().containsKey(object.id())) {
                put(current, object.id(), new Entry(object.kind(), owner.user(), owner.team(), object.parentId(), now,
                        object.expiresAt(), null, null));
            }
        }
        maps.written();
    }

    /**
     * Records the entry unless its id is on record. A reaped kind's index entry goes first: a crash between the two
     * leaves an index entry without its record, which a read drops, never a live object the reaper cannot find.
     */
    private static void put(Maps current, String id, Entry entry) {
        String key = entry.isLive() && entry.kind().isReaped() ? liveKey(id, entry) : null;
        if (key != null) {
            current.live().put(key, id);
        }
        if (current.owned().putIfAbsent(id, entry) != null && key != null) {
            current.live().remove(key);
        }
    }

    @Override
    public Optional<OwnedObject> find(String id) {
        return Optional.ofNullable(maps.get().owned().get(id)).map(entry -> entry.object(id));
    }

    @Override
    public List<OwnedObject> findAll(Collection<String> ids) {
        MVMap<String, Entry> owned = maps.get().owned();
        List<OwnedObject> found = new ArrayList<>();
        for (String id : new LinkedHashSet<>(ids)) {
            Entry entry = owned.get(id);
            if (entry != null) {
                found.add(entry.object(id));
            }
        }
        return found;
    }

    @Override
    public List<OwnedObject> live(ObjectKind kind, String team, int limit) {
        List<OwnedObject> live = liveRange(kind, "", UNDATED + UNDATED, Integer.MAX_VALUE,
                object -> team == null || object.ownerTeam().equals(team));
        return live.stream().sorted(Comparator.comparing(OwnedObject::createdAt).reversed()).limit(limit).toList();
    }

    @Override
    public List<OwnedObject> reapable(ObjectKind kind, Instant expiredBefore, boolean includeUndated, int limit) {
        List<OwnedObject> found = liveRange(kind, "", sortable(expiredBefore), limit, object -> true);
        if (includeUndated && found.size() < limit) {
            found.addAll(liveRange(kind, UNDATED, UNDATED + UNDATED, limit - found.size(), object -> true));
        }
        return found;
    }

    /**
     * The live objects of a reaped kind whose index keys lie in {@code [from, to)} past the kind, in the index's order,
     * up to {@code limit} of those {@code wanted} accepts. An index entry whose record is gone, deleted or different (a
     * crash between the two writes) is dropped.
     */
    private List<OwnedObject> liveRange(ObjectKind kind, String from, String to, int limit, Predicate<OwnedObject> wanted) {
        if (!kind.isReaped()) {
            throw new IllegalArgumentException("the live objects of " + kind + " are not kept in order: it is not reaped");
        }
        Maps current = maps.get();
        String prefix = kind.name() + '/';
        String end = prefix + to;
        List<OwnedObject> found = new ArrayList<>();
        Cursor<String, String> cursor = current.live().cursor(prefix + from);
        while (found.size() < limit && cursor.hasNext()) {
            String key = cursor.next();
            if (key.compareTo(end) >= 0) {
                break;
            }
            String id = cursor.getValue();
            Entry entry = current.owned().get(id);
            if (entry == null || !entry.isLive() || !key.equals(liveKey(id, entry))) {
                current.live().remove(key);
            } else if (wanted.test(entry.object(id))) {
                found.add(entry.object(id));
            }
        }
        return found;
    }

    @Override
    public synchronized void markDeleted(String id) {
        Maps current = maps.get();
        Entry entry = current.owned().get(id);
        if (entry != null && entry.isLive()) {
            current.owned().put(id, entry.withDeleted(clock.instant()));
            if (entry.kind().isReaped()) {
                current.live().remove(liveKey(id, entry));
            }
            maps.written();
        }
    }

    @Override
    public synchronized boolean claim(String id, Instant until) {
        Maps current = maps.get();
        Entry entry = current.owned().get(id);
        if (entry == null || !entry.isLive() || entry.claimedUntil() != null && !entry.claimedUntil().isBefore(clock.instant())) {
            return false;
        }
        current.owned().put(id, entry.withClaimedUntil(until));
        maps.written();
        return true;
    }

    /** The key of a live object of a reaped kind: the kind, its expiry (none last), its creation, its id. */
    private static String liveKey(String id, Entry entry) {
        return entry.kind().name() + '/' + (entry.expiresAt() == null ? UNDATED : sortable(entry.expiresAt())) + '/'
                + sortable(entry.createdAt()) + '/' + id;
    }

    /** An instant as text that sorts as the instant does: its seconds with the sign bit flipped, then its nanoseconds, in hex. */
    private static String sortable(Instant instant) {
        return HEX.toHexDigits(instant.getEpochSecond() ^ Long.MIN_VALUE) + HEX.toHexDigits(instant.getNano());
    }

    private static Entry entry(ResultSet row) throws SQLException {
        return new Entry(ObjectKind.valueOf(row.getString("kind")), row.getString("owner_user"), row.getString("owner_team"),
                row.getString("parent_id"), instant(row.getTimestamp("created_at")), instant(row.getTimestamp("expires_at")),
                instant(row.getTimestamp("deleted_at")), instant(row.getTimestamp("claimed_until")));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** An owner record, its id the map's key. */
    record Entry(ObjectKind kind, String user, String team, String parentId, Instant createdAt, Instant expiresAt,
                 Instant deletedAt, Instant claimedUntil) {

        boolean isLive() {
            return deletedAt == null;
        }

        OwnedObject object(String id) {
            return new OwnedObject(id, kind, user, team, parentId, createdAt, expiresAt, deletedAt);
        }

        Entry withDeleted(Instant at) {
            return new Entry(kind, user, team, parentId, createdAt, expiresAt, at, claimedUntil);
        }

        Entry withClaimedUntil(Instant until) {
            return new Entry(kind, user, team, parentId, createdAt, expiresAt, deletedAt, until);
        }
    }

    /**
     * An entry as bytes: a byte of which optional fields follow, the kind's name, the owner, the parent, then each
     * instant as its seconds and nanoseconds.
     */
    static final class EntryType extends BasicDataType<Entry> {

        static final EntryType INSTANCE = new EntryType();

        private static final int PARENT = 1;
        private static final int EXPIRES = 2;
        private static final int DELETED = 4;
        private static final int CLAIMED = 8;

        @Override
        public int getMemory(Entry entry) {
            return 160 + 2 * (entry.user().length() + entry.team().length() + (entry.parentId() == null ? 0 : entry.parentId().length()));
        }

        @Override
        public void write(WriteBuffer buffer, Entry entry) {
            int present = (entry.parentId() == null ? 0 : PARENT) | (entry.expiresAt() == null ? 0 : EXPIRES)
                    | (entry.deletedAt() == null ? 0 : DELETED) | (entry.claimedUntil() == null ? 0 : CLAIMED);
            buffer.put((byte) present);
            string(buffer, entry.kind().name());
            string(buffer, entry.user());
            string(buffer, entry.team());
            if (entry.parentId() != null) {
                string(buffer, entry.parentId());
            }
            for (Instant instant : new Instant[] {entry.createdAt(), entry.expiresAt(), entry.deletedAt(), entry.claimedUntil()}) {
                if (instant != null) {
                    buffer.putVarLong(instant.getEpochSecond()).putVarInt(instant.getNano());
                }
            }
        }

        @Override
        public Entry read(ByteBuffer buffer) {
            int present = buffer.get();
            ObjectKind kind = ObjectKind.valueOf(DataUtils.readString(buffer));
            String user = DataUtils.readString(buffer);
            String team = DataUtils.readString(buffer);
            String parent = (present & PARENT) == 0 ? null : DataUtils.readString(buffer);
            Instant created = instant(buffer);
            Instant expires = (present & EXPIRES) == 0 ? null : instant(buffer);
            Instant deleted = (present & DELETED) == 0 ? null : instant(buffer);
            Instant claimed = (present & CLAIMED) == 0 ? null : instant(buffer);
            return new Entry(kind, user, team, parent, created, expires, deleted, claimed);
        }

        @Override
        public Entry[] createStorage(int size) {
            return new Entry[size];
        }

        private static void string(WriteBuffer buffer, String value) {
            buffer.putVarInt(value.length()).putStringData(value, value.length());
        }

        private static Instant instant(ByteBuffer buffer) {
            return Instant.ofEpochSecond(DataUtils.readVarLong(buffer), DataUtils.readVarInt(buffer));
        }
    }
}
