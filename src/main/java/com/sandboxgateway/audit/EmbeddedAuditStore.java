package com.sandboxgateway.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.TreeFrontier;
import com.sandboxgateway.audit.tlog.TreeNodes;
import com.sandboxgateway.store.GenericFormat;
import com.sandboxgateway.store.H2Maps;

/**
 * The audit trail of the embedded default in maps of the H2 file ({@link H2Maps}) rather than tables: a record costs one
 * map entry and one per filter that finds it (its ids, kind, user, team, session, container, code hash and flags), not a
 * row with its indexes, their undo-log entries, a statement and a transaction. The embedded database serves one gateway,
 * whose appends this store makes one at a time under its lock.
 * <p>
 * <b>What a crash leaves.</b> H2 writes each map as it stood at some moment, and its maps at moments a little apart. So
 * what must hold together lives in one map, {@link Maps#chain}: the records, the tree's nodes, the head (where the chain
 * and its tree end and start) and the signed checkpoints. An append writes the record, then the nodes it completed, then
 * the head; a head on disk therefore has its records and nodes there too, and a record past the head (its append cut
 * short) is removed at start. The filters' entries, in {@link Maps#index}, are made again from the records at start for
 * those the index had not yet marked done, and every entry a read follows is checked against the record it names.
 */
final class EmbeddedAuditStore implements AuditStore {

    /** The head's key in {@link Maps#chain}: records are above it, tree nodes and checkpoints below. */
    private static final long HEAD = 0;
    /** Checkpoints are kept under this plus their tree size: below every node's key ({@link #nodeKey}). */
    private static final long CHECKPOINTS = Long.MIN_VALUE;
    private static final long CHECKPOINTS_END = Long.MIN_VALUE / 2;
    /** The index's key of a record up to which every entry is made: a start makes those of the records after it. */
    private static final String INDEXED = "indexed";
    /**
     * Appends move {@link #INDEXED} once every this many records, not each time: a start then makes again the entries of
     * at most this many, which are there already unless a crash lost them (making one again changes nothing).
     */
    private static final int INDEXED_EVERY = 256;
    /** The tags of the filters by user, team, session, container and code hash ({@link #forEachValue}). */
    private static final List<String> VALUE_TAGS = List.of("u", "t", "s", "x", "h");
    private static final HexFormat HEX = HexFormat.of();
    /** How many fields a record has in the chain ({@link #packed}). */
    static final int FIELDS = 23;

    private final H2Maps<Maps> maps;
    private final AuditChain chain;
    /** Where the chain and its tree end: read at start, then moved by every append under this store's lock. */
    private volatile Head head;

    EmbeddedAuditStore(H2Maps<Maps> maps, AuditChain chain) {
        this.maps = maps;
        this.chain = chain;
    }

    /**
     * The records, tree nodes, head and checkpoints by their keys ({@link #HEAD}), and the filters' entries: a record's
     * ids ({@code i} and {@code c} with the id, to its seq) and one entry per value it is found by, the value's tag and the
     * value, length first, then the seq ({@link #entry}).
     */
    record Maps(MVMap<Long, Object> chain, MVMap<String, Long> index) {

        static Maps open(MVStore store) {
            return new Maps(store.openMap("gateway.audit_chain", new MVMap.Builder<Long, Object>().keyType(GenericFormat.LONGS)),
                    store.openMap("gateway.audit_index", new MVMap.Builder<String, Long>().keyType(GenericFormat.STRINGS)
                            .valueType(GenericFormat.LONGS)));
        }
    }

    /**
     * Moves into the maps what the tables hold (written by a version of the gateway before them; {@link H2Maps#moveRows}):
     * the records, the tree's nodes and the checkpoints first, the chain's head last, so a start that stopped half-way
     * moves the rest the next time; then readies the chain for appends.
     */
    EmbeddedAuditStore movedFrom(JdbcClient jdbc) {
        Maps current = maps.get();
        if (!jdbc.sql("SELECT id FROM audit_chain").query().listOfRows().isEmpty()) {
            // A record's flags are in its row too: the table of them only indexed them.
            jdbc.sql("DELETE FROM audit_flag").update();
            H2Maps.moveRows(jdbc, "audit_record", "seq", row -> current.chain().put(row.getLong("seq"), packed(JdbcAuditStore.map(row, 0))));
            H2Maps.moveRows(jdbc, "audit_tree_node", "id", row -> current.chain().put(nodeKey(row.getLong("id")),
                    HEX.parseHex(row.getString("hash"))));
            H2Maps.moveRows(jdbc, "audit_checkpoint", "tree_size", row -> current.chain().put(CHECKPOINTS + row.getLong("tree_size"),
                    new Object[] {row.getString("root_hash"), row.getString("note"), micros(row.getTimestamp("created_at").toInstant())}));
            H2Maps.moveRows(jdbc, "audit_chain", "id", this::moveHead);
        }
        return opened();
    }

    private void moveHead(ResultSet row) throws SQLException {
        long treeSize = row.getLong("tree_size");
        // A tree begun after retention deleted older records starts at the first record still there.
        long treeBase = treeSize == 0 ? row.getLong("base_seq") : row.getLong("tree_base");
        maps.get().chain().put(HEAD, Head.fields(row.getLong("last_seq"), row.getString("last_hash"), row.getLong("base_seq"),
                row.getString("base_hash"), treeBase, treeSize));
    }

    /**
     * Reads the head (a new chain's where there is none), removes what an append cut short left past it and what
     * retention cut short left before its base, and makes the filters' entries the index lacks.
     */
    private synchronized EmbeddedAuditStore opened() {
        Maps current = maps.get();
        current.chain().putIfAbsent(HEAD, Head.fields(0, AuditChain.GENESIS, 0, AuditChain.GENESIS, 0, 0));
        head = Head.read(current);
        long lastSeq = head.lastSeq;
        remove(current, lastSeq, Long.MAX_VALUE);
        remove(current, HEAD, head.baseSeq);
        Long indexed = current.index().get(INDEXED);
        for (long seq = Math.max(indexed == null ? 0 : indexed, head.baseSeq) + 1; seq <= lastSeq; seq++) {
            StoredRecord record = stored(current, seq);
            if (record != null) {
                index(current, seq, record.record());
            }
        }
        current.index().put(INDEXED, lastSeq);
        maps.written();
        return this;
    }

    @Override
    public AuditTree tree() {
        return new Tree(maps);
    }

    /** The maps take part in no transaction: an append is made at once. */
    @Override
    public boolean joinsTransaction() {
        return false;
    }

    @Override
    public boolean appendInTransaction(AuditRecord record) {
        return append(record);
    }

    @Override
    public synchronized boolean append(AuditRecord record) {
        Maps current = maps.get();
        if (held(current, "i", record.recordId(), stored -> stored.recordId().equals(record.recordId()))
                || record.callId() != null && holdsCall(current, record.callId())) {
            return false;
        }
        catchUp(current);
        long seq = head.lastSeq + 1;
        AuditChain.Hashes hashes = chain.hashes(head.lastHash, seq, record);
        current.chain().put(seq, packed(new StoredRecord(seq, record, head.lastHash, hashes.chainHash(),
                Base64.getEncoder().encodeToString(hashes.leafHash()))));
        head.tree.append(hashes.leafHash(), (level, index, hash) -> current.chain().put(nodeKey(TreeNodes.key(level, index)), hash));
        head = head.movedTo(seq, hashes.chainHash());
        current.chain().put(HEAD, head.fields());
        index(current, seq, record);
        if (seq % INDEXED_EVERY == 0) {
            current.index().put(INDEXED, seq);
        }
        maps.written();
        return true;
    }

    /**
     * Makes leaves of the records the tree does not hold yet: only records moved from the tables that an earlier version
     * had not made leaves of.
     */
    @Override
    public synchronized long catchUpTree() {
        Maps current = maps.get();
        long added = catchUp(current);
        maps.written();
        return added;
    }

    private long catchUp(Maps current) {
        if (head.treeBase + head.tree.size() == head.lastSeq) {
            return 0;
        }
        long before = head.tree.size();
        while (head.treeBase + head.tree.size() < head.lastSeq) {
            long seq = head.treeBase + head.tree.size() + 1;
            StoredRecord stored = stored(current, seq);
            if (stored == null) {
                throw new IllegalStateException("audit record " + seq + " is missing, so the records after it cannot become "
                        + "leaves of the audit tree; GET /actuator/audit/verify shows where the chain is broken");
            }
            byte[] leaf = chain.hashes(stored.prevHash(), seq, stored.record()).leafHash();
            current.chain().put(seq, packed(new StoredRecord(seq, stored.record(), stored.prevHash(), stored.hash(),
                    Base64.getEncoder().encodeToString(leaf))));
            head.tree.append(leaf, (level, index, hash) -> current.chain().put(nodeKey(TreeNodes.key(level, index)), hash));
        }
        current.chain().put(HEAD, head.fields());
        return head.tree.size() - before;
    }

    @Override
    public List<StoredRecord> query(AuditQuery query) {
        return query(query, stored -> true);
    }

    @Override
    public List<StoredRecord> flaggedExecutions(AuditQuery query) {
        return query(query, stored -> stored.kind().isExecution() && !stored.flags().isEmpty());
    }

    /**
     * The records matching the query and {@code also}, read from the entries of its most selective filter (in chain
     * order from the query's cursor), or from the chain itself where it filters by none.
     */
    private List<StoredRecord> query(AuditQuery query, Predicate<AuditRecord> also) {
        Predicate<AuditRecord> matches = also.and(stored -> (query.user() == null || query.user().equals(stored.user()))
                && (query.team() == null || query.team().equals(stored.team()))
                && (query.session() == null || query.session().equals(stored.session()))
                && (query.container() == null || query.container().equals(stored.containerId()))
                && (query.kind() == null || query.kind().equals(stored.kind().name()))
                && (query.flag() == null || stored.flags().contains(query.flag()))
                && (query.since() == null || !stored.createdAt().isBefore(query.since()))
                && (query.until() == null || stored.createdAt().isBefore(query.until())));
        long after = query.after() == null ? 0 : query.after();
        Maps current = maps.get();
        Iterator<Long> seqs = query.session() != null ? entries(current, "s", query.session(), after)
                : query.container() != null ? entries(current, "x", query.container(), after)
                : query.user() != null ? entries(current, "u", query.user(), after)
                : query.flag() != null ? entries(current, "f", query.flag(), after)
                : query.team() != null ? entries(current, "t", query.team(), after)
                : query.kind() != null ? entries(current, "k", query.kind(), after)
                : records(current, after);
        return collect(current, seqs, matches, query.limit());
    }

    @Override
    public List<StoredRecord> withCodeHash(String sha256, int limit) {
        Maps current = maps.get();
        return collect(current, entries(current, "h", sha256, 0), stored -> sha256.equals(stored.codeSha256()), limit);
    }

    /**
     * Up to {@code limit} records of the chain among {@code seqs} that match: an entry of a record past the head, or of
     * one that no longer has the value it was made for (its append was cut short and the seq taken again), is passed over.
     */
    private List<StoredRecord> collect(Maps current, Iterator<Long> seqs, Predicate<AuditRecord> matches, int limit) {
        List<StoredRecord> found = new ArrayList<>();
        long last = head.lastSeq;
        while (found.size() < limit && seqs.hasNext()) {
            long seq = seqs.next();
            StoredRecord stored = seq <= last ? stored(current, seq) : null;
            if (stored != null && matches.test(stored.record())) {
                found.add(stored);
            }
        }
        return found;
    }

    @Override
    public List<Long> sessionBefore(String session, long seq, int count) {
        Maps current = maps.get();
        return collect(current, entriesBefore(current, "s", session, seq), stored -> session.equals(stored.session()), count).stream()
                .map(StoredRecord::seq).toList();
    }

    @Override
    public List<Long> sessionAfter(String session, long seq, int count) {
        return query(new AuditQuery(null, null, session, null, null, null, null, null, seq, count)).stream()
                .map(StoredRecord::seq).toList();
    }

    @Override
    public Optional<String> latestCodeDetails(String user, String session) {
        Maps current = maps.get();
        return collect(current, entriesBefore(current, "s", session, Long.MAX_VALUE), stored -> session.equals(stored.session())
                && user.equals(stored.user()) && stored.kind().isExecution(), 1).stream().findFirst()
                .map(stored -> stored.record().details());
    }

    @Override
    public boolean holdsCall(String callId) {
        return holdsCall(maps.get(), callId);
    }

    private boolean holdsCall(Maps current, String callId) {
        return held(current, "c", callId, stored -> callId.equals(stored.callId()));
    }

    /** Whether the id's entry names a record of the chain that has the id (an entry an append cut short left does not). */
    private boolean held(Maps current, String tag, String id, Predicate<AuditRecord> has) {
        Long seq = current.index().get(tag + id);
        StoredRecord stored = seq == null || seq > head.lastSeq ? null : stored(current, seq);
        return stored != null && has.test(stored.record());
    }

    @Override
    public ChainVerification verify() {
        Maps current = maps.get();
        Head at = head;
        long expectedSeq = at.baseSeq + 1;
        String previous = at.baseHash;
        long checked = 0;
        for (Iterator<Long> seqs = records(current, at.baseSeq); seqs.hasNext(); ) {
            long seq = seqs.next();
            if (seq > at.lastSeq) {
                break;
            }
            StoredRecord stored = stored(current, seq);
            if (seq != expectedSeq) {
                return ChainVerification.broken(checked, expectedSeq, "record missing: the chain jumps to " + seq);
            }
            if (!stored.prevHash().equals(previous)) {
                return ChainVerification.broken(checked, seq, "does not link to the record before it");
            }
            AuditChain.Hashes hashes = chain.hashes(previous, seq, stored.record());
            if (!hashes.chainHash().equals(stored.hash())) {
                return ChainVerification.broken(checked, seq, "content does not match its hash");
            }
            if (stored.leafHash() != null && !stored.leafHash().equals(Base64.getEncoder().encodeToString(hashes.leafHash()))) {
                return ChainVerification.broken(checked, seq, "content does not match its leaf in the Merkle tree");
            }
            previous = stored.hash();
            expectedSeq++;
            checked++;
        }
        if (expectedSeq <= at.lastSeq) {
            return ChainVerification.broken(checked, expectedSeq, "record missing: the chain ends early");
        }
        return ChainVerification.ok(checked);
    }

    /**
     * Moves the base first, then deletes the records before it and their entries; a start after a crash in between
     * deletes what is left ({@link #opened}). Every record is read for its time, as a table without an index on it is,
     * and only the base's move waits for appends (and they for it).
     */
    @Override
    public int deleteOlderThan(Instant cutoff) {
        Maps current = maps.get();
        Head at = head;
        StoredRecord boundary = null;
        for (Iterator<Long> seqs = records(current, at.baseSeq); seqs.hasNext(); ) {
            long seq = seqs.next();
            if (seq > at.lastSeq) {
                break;
            }
            StoredRecord stored = stored(current, seq);
            if (stored.record().createdAt().isBefore(cutoff)) {
                boundary = stored;
            }
        }
        if (boundary == null || !movedBase(current, at.baseSeq, boundary)) {
            return 0;
        }
        int deleted = remove(current, at.baseSeq, boundary.seq());
        maps.written();
        return deleted;
    }

    /** Moves the chain's base from {@code from} past {@code boundary}; false where it moved meanwhile. */
    private synchronized boolean movedBase(Maps current, long from, StoredRecord boundary) {
        if (head.baseSeq != from) {
            return false;
        }
        head = new Head(head.lastSeq, head.lastHash, boundary.seq(), boundary.hash(), head.treeBase, head.tree);
        current.chain().put(HEAD, head.fields());
        return true;
    }

    /** The seqs of the records after {@code after}, in chain order. */
    private static Iterator<Long> records(Maps current, long after) {
        return current.chain().keyIterator(after + 1);
    }

    /** The seqs the filter's entries for {@code value} name after {@code after}, in chain order. */
    private static Iterator<Long> entries(Maps current, String tag, String value, long after) {
        String prefix = prefix(tag, value);
        return seqs(current.index().cursor(prefix + seqHex(after + 1), prefix + seqHex(Long.MAX_VALUE), false));
    }

    /** The seqs the filter's entries for {@code value} name before {@code before}, nearest first. */
    private static Iterator<Long> entriesBefore(Maps current, String tag, String value, long before) {
        String prefix = prefix(tag, value);
        return seqs(current.index().cursor(prefix + seqHex(before - 1), prefix + seqHex(0), true));
    }

    /** The seqs the entries end with. */
    private static Iterator<Long> seqs(Iterator<String> entries) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public Long next() {
                String entry = entries.next();
                return HEX.fromHexDigitsToLong(entry, entry.length() - 16, entry.length());
            }
        };
    }

    private static void index(Maps current, long seq, AuditRecord record) {
        current.index().put("i" + record.recordId(), seq);
        if (record.callId() != null) {
            current.index().put("c" + record.callId(), seq);
        }
        forEachValue(record, (tag, value) -> current.index().put(entry(tag, value, seq), seq));
    }

    /** Removes the records after {@code after} up to {@code upTo}, and their entries; returns how many there were. */
    private static int remove(Maps current, long after, long upTo) {
        int removed = 0;
        for (Long seq = current.chain().higherKey(after); seq != null && seq <= upTo; seq = current.chain().higherKey(seq)) {
            unindex(current, seq, stored(current, seq).record());
            current.chain().remove(seq);
            removed++;
        }
        return removed;
    }

    private static void unindex(Maps current, long seq, AuditRecord record) {
        current.index().remove("i" + record.recordId(), seq);
        if (record.callId() != null) {
            current.index().remove("c" + record.callId(), seq);
        }
        forEachValue(record, (tag, value) -> current.index().remove(entry(tag, value, seq)));
    }

    /** The values a record is found by, each with its filter's tag; a value it lacks has no entry. */
    private static void forEachValue(AuditRecord record, BiConsumer<String, String> sink) {
        sink.accept("k", record.kind().name());
        String[] values = {record.user(), record.team(), record.session(), record.containerId(), record.codeSha256()};
        for (int i = 0; i < VALUE_TAGS.size(); i++) {
            if (values[i] != null) {
                sink.accept(VALUE_TAGS.get(i), values[i]);
            }
        }
        record.flags().forEach(flag -> sink.accept("f", flag));
    }

    /** A filter's entry: its tag, the value (its length first, so no value is a prefix of another's entries), the seq. */
    private static String entry(String tag, String value, long seq) {
        return prefix(tag, value) + seqHex(seq);
    }

    private static String prefix(String tag, String value) {
        return tag + value.length() + ":" + value;
    }

    /** The seq as 16 hex digits, so entries sort in chain order. */
    private static String seqHex(long seq) {
        return HEX.toHexDigits(seq);
    }

    private static long nodeKey(long key) {
        return -1 - key;
    }

    private static byte[] node(Maps current, long key) {
        return (byte[]) current.chain().get(nodeKey(key));
    }

    private static StoredRecord stored(Maps current, long seq) {
        Object value = current.chain().get(seq);
        if (value == null) {
            return null;
        }
        // A record written by an earlier version is the array of its fields, unpacked.
        Object[] fields = value instanceof byte[] packed ? PackedFields.unpack(packed, FIELDS) : (Object[]) value;
        AuditRecord record = new AuditRecord((String) fields[0], AuditRecord.Kind.valueOf((String) fields[1]), (String) fields[2],
                (String) fields[3], (String) fields[4], (String) fields[5], (String) fields[6], (String) fields[7],
                (String) fields[8], (String) fields[9], (String) fields[10], (String) fields[11], (String) fields[12],
                (String) fields[13], (String) fields[14], (Boolean) fields[15], (String) fields[16], instant((Long) fields[17]),
                fields[18] == null ? List.of() : List.of((String[]) fields[18]), (String) fields[19]);
        return new StoredRecord(seq, record, (String) fields[20], (String) fields[21], (String) fields[22]);
    }

    /** A record as the chain keeps it: its {@value #FIELDS} fields, packed. */
    private static byte[] packed(StoredRecord stored) {
        AuditRecord r = stored.record();
        return PackedFields.pack(r.recordId(), r.kind().name(), r.callId(), r.requestId(), r.upstreamRequestId(), r.user(), r.team(),
                r.session(), r.responseId(), r.containerId(), r.model(), r.status(), r.code(), r.codeSha256(), r.outputs(),
                r.outputsTruncated(), r.details(), micros(r.createdAt()), r.flags().isEmpty() ? null : r.flags().toArray(String[]::new),
                r.traceId(), stored.prevHash(), stored.hash(), stored.leafHash());
    }

    private static long micros(Instant at) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, at);
    }

    private static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    /** Where the chain ends and starts (retention's base), and the tree over it: leaf {@code i} is seq {@code treeBase + i + 1}. */
    private record Head(long lastSeq, String lastHash, long baseSeq, String baseHash, long treeBase, TreeFrontier tree) {

        Head movedTo(long seq, String hash) {
            return new Head(seq, hash, baseSeq, baseHash, treeBase, tree);
        }

        Object[] fields() {
            return fields(lastSeq, lastHash, baseSeq, baseHash, treeBase, tree.size());
        }

        /** The head the map keeps, its tree's frontier read from the nodes. */
        static Head read(Maps current) {
            Object[] fields = (Object[]) current.chain().get(HEAD);
            return new Head((Long) fields[0], (String) fields[1], (Long) fields[2], (String) fields[3], (Long) fields[4],
                    TreeFrontier.of((Long) fields[5], (level, index) -> node(current, TreeNodes.key(level, index))));
        }

        /** The head as the map keeps it: the tree by its size (its frontier is read from its nodes). */
        static Object[] fields(long lastSeq, String lastHash, long baseSeq, String baseHash, long treeBase, long treeSize) {
            return new Object[] {lastSeq, lastHash, baseSeq, baseHash, treeBase, treeSize};
        }
    }

    /** The tree as these maps keep it. */
    static final class Tree implements AuditTree {

        private final H2Maps<Maps> maps;

        Tree(H2Maps<Maps> maps) {
            this.maps = maps;
        }

        @Override
        public Checkpoint head(String origin) {
            TreeFrontier tree = Head.read(maps.get()).tree();
            return new Checkpoint(origin, tree.size(), tree.root());
        }

        @Override
        public boolean save(Checkpoint checkpoint, String note, Instant at) {
            Maps current = maps.get();
            boolean kept = current.chain().putIfAbsent(CHECKPOINTS + checkpoint.size(),
                    new Object[] {HEX.formatHex(checkpoint.root()), note, micros(at)}) == null;
            maps.written();
            return kept;
        }

        @Override
        public Optional<String> latestCheckpoint() {
            Maps current = maps.get();
            Long key = current.chain().lowerKey(CHECKPOINTS_END);
            return key == null ? Optional.empty() : Optional.of((String) ((Object[]) current.chain().get(key))[1]);
        }

        @Override
        public Span span() {
            Head head = Head.read(maps.get());
            return new Span(head.tree().size(), head.treeBase());
        }

        @Override
        public Map<Long, byte[]> nodes(Set<Long> keys) {
            Maps current = maps.get();
            Map<Long, byte[]> found = new HashMap<>();
            for (long key : keys) {
                byte[] hash = node(current, key);
                if (hash != null) {
                    found.put(key, hash);
                }
            }
            return found;
        }
    }
}
