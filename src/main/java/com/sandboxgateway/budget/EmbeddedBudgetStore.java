package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.store.GenericFormat;
import com.sandboxgateway.store.H2Maps;

/**
 * The charges of the embedded default, in maps of the H2 file ({@link H2Maps}) rather than tables: a charge costs one
 * map entry and one per total it counts in (its session and its day; its team's day), not a row with its indexes,
 * their undo-log entries and a statement. A total is read from the entries of its range, as the table's index would
 * be, which happens when a counter is seeded. The embedded database serves one replica, so a read-modify-write (a
 * settlement, a take of background responses) is atomic under this store's lock.
 */
final class EmbeddedBudgetStore implements BudgetStore {

    private final H2Maps<Maps> maps;
    private final Clock clock;

    EmbeddedBudgetStore(H2Maps<Maps> maps, Clock clock) {
        this.maps = maps;
        this.clock = clock;
    }

    /**
     * The turn charges by id, and their ids by user and session and by user and day (an admin reset's by session
     * only); the spend charges by id, and their ids by team and day; the pending background responses by id. An index's
     * key ends with the charge's id, its value is that id.
     */
    record Maps(MVMap<String, Object[]> turns, MVMap<String, String> turnsBySession, MVMap<String, String> turnsByDay,
                MVMap<String, Object[]> spend, MVMap<String, String> spendByDay, MVMap<String, Object[]> background) {

        static Maps open(MVStore store) {
            return new Maps(records(store, "gateway.turn_charge"), index(store, "gateway.turn_charge_by_session"),
                    index(store, "gateway.turn_charge_by_day"), records(store, "gateway.spend_charge"),
                    index(store, "gateway.spend_charge_by_day"), records(store, "gateway.background_response"));
        }

        private static MVMap<String, Object[]> records(MVStore store, String name) {
            return store.openMap(name, new MVMap.Builder<String, Object[]>().keyType(GenericFormat.STRINGS));
        }

        private static MVMap<String, String> index(MVStore store, String name) {
            return store.openMap(name, new MVMap.Builder<String, String>().keyType(GenericFormat.STRINGS)
                    .valueType(GenericFormat.STRINGS));
        }
    }

    /** Moves into the maps the rows the tables hold ({@link H2Maps#moveRows}). */
    EmbeddedBudgetStore movedFrom(JdbcClient jdbc) {
        H2Maps.moveRows(jdbc, "turn_charge", "charge_id", row -> turnRow(new TurnCharge(row.getString("charge_id"),
                row.getString("user_name"), row.getString("team"), row.getString("session_id"),
                row.getObject("charge_day", LocalDate.class), row.getInt("reserved"), row.getObject("turns", Integer.class))).insert());
        H2Maps.moveRows(jdbc, "spend_charge", "charge_id", row -> spendRow(row.getString("charge_id"), row.getString("team"),
                row.getString("user_name"), row.getObject("charge_day", LocalDate.class), row.getLong("usd_micros")).insert());
        H2Maps.moveRows(jdbc, "background_response", "charge_id", row -> maps.get().background().putIfAbsent(row.getString("charge_id"),
                new Background(row.getString("user_name"), row.getString("team"),
                        row.getObject("created_at", OffsetDateTime.class).toInstant().toEpochMilli(), null).fields()));
        return this;
    }

    @Override
    public Optional<String> sessionOf(String responseId, String user) {
        return turnCharge(responseId, user).map(TurnCharge::session);
    }

    @Override
    public Optional<TurnCharge> turnCharge(String chargeId, String user) {
        return Optional.ofNullable(maps.get().turns().get(chargeId)).map(fields -> Turn.of(chargeId, fields))
                .filter(charge -> charge.user().equals(user));
    }

    @Override
    public long sessionTurns(String user, String session) {
        Maps current = maps.get();
        return charges(current.turnsBySession(), key(user, session), current.turns()).mapToLong(fields -> Turn.of(null, fields).counted()).sum();
    }

    @Override
    public long dayTurns(String user, LocalDate day) {
        Maps current = maps.get();
        return charges(current.turnsByDay(), key(user, day.toString()), current.turns()).mapToLong(fields -> Turn.of(null, fields).counted()).sum();
    }

    @Override
    public Optional<String> teamOfSession(String user, String session) {
        Maps current = maps.get();
        return charges(current.turnsBySession(), key(user, session), current.turns()).map(fields -> Turn.of(null, fields).team()).findFirst();
    }

    @Override
    public OptionalLong spendCharge(String chargeId) {
        Object[] fields = maps.get().spend().get(chargeId);
        return fields == null ? OptionalLong.empty() : OptionalLong.of(Spend.micros(fields));
    }

    @Override
    public long daySpendMicros(String team, LocalDate day) {
        Maps current = maps.get();
        return charges(current.spendByDay(), key(team, day.toString()), current.spend()).mapToLong(Spend::micros).sum();
    }

    /**
     * The charge, its index entries first: a crash between them leaves an entry whose charge is not there, which a total
     * skips; never a charge its totals cannot count.
     */
    @Override
    public ChargeRow turnRow(TurnCharge charge) {
        return new Made(maps -> {
            if (maps.turns().containsKey(charge.chargeId())) {
                return false;
            }
            maps.turnsBySession().put(key(charge.user(), charge.session()) + charge.chargeId(), charge.chargeId());
            if (!charge.chargeId().startsWith(RESET)) {
                maps.turnsByDay().put(key(charge.user(), charge.day().toString()) + charge.chargeId(), charge.chargeId());
            }
            return maps.turns().putIfAbsent(charge.chargeId(), Turn.fields(charge)) == null;
        });
    }

    @Override
    public ChargeRow spendRow(String chargeId, String team, String user, LocalDate day, long usdMicros) {
        return new Made(maps -> {
            if (maps.spend().containsKey(chargeId)) {
                return false;
            }
            maps.spendByDay().put(key(team, day.toString()) + chargeId, chargeId);
            return maps.spend().putIfAbsent(chargeId, Spend.fields(team, user, day, usdMicros)) == null;
        });
    }

    @Override
    public ChargeRow backgroundRow(TurnCharge charge) {
        return new Made(maps -> maps.background().putIfAbsent(charge.chargeId(),
                new Background(charge.user(), charge.team(), clock.millis(), null).fields()) == null);
    }

    @Override
    public synchronized boolean settle(String chargeId, int turns) {
        Maps current = maps.get();
        Object[] fields = current.turns().get(chargeId);
        boolean settled = fields != null && fields[Turn.TURNS] == null;
        if (settled) {
            Object[] changed = fields.clone();
            changed[Turn.TURNS] = turns;
            current.turns().put(chargeId, changed);
        }
        forgetUnfetched(chargeId);
        return settled;
    }

    @Override
    public void forgetUnfetched(String chargeId) {
        maps.get().background().remove(chargeId);
        maps.written();
    }

    @Override
    public synchronized List<UnfetchedResponses.Unfetched> takeUnfetched(Duration every, Duration maxAge, int limit) {
        MVMap<String, Object[]> background = maps.get().background();
        long now = clock.millis();
        long recent = now - every.toMillis();
        long oldest = now - maxAge.toMillis();
        List<Map.Entry<String, Background>> due = new ArrayList<>();
        for (Cursor<String, Object[]> cursor = background.cursor(null); cursor.hasNext(); ) {
            String id = cursor.next();
            Background pending = Background.of(cursor.getValue());
            if (pending.createdAt() < oldest) {
                background.remove(id);
            } else if (pending.createdAt() < recent && (pending.fetchedAt() == null || pending.fetchedAt() < recent)) {
                due.add(Map.entry(id, pending));
            }
        }
        List<UnfetchedResponses.Unfetched> taken = due.stream().sorted(Comparator.comparingLong(entry -> entry.getValue().createdAt()))
                .limit(limit).map(entry -> {
                    Background pending = entry.getValue();
                    background.put(entry.getKey(), new Background(pending.user(), pending.team(), pending.createdAt(), now).fields());
                    return new UnfetchedResponses.Unfetched(entry.getKey(), pending.user(), pending.team());
                }).toList();
        maps.written();
        return taken;
    }

    /**
     * The charges whose ids an index holds under {@code prefix}, in its order; an id whose charge is not there (a crash
     * between the two writes) is skipped.
     */
    private static Stream<Object[]> charges(MVMap<String, String> index, String prefix, MVMap<String, Object[]> charges) {
        List<String> ids = new ArrayList<>();
        for (Cursor<String, String> cursor = index.cursor(prefix); cursor.hasNext() && cursor.next().startsWith(prefix); ) {
            ids.add(cursor.getValue());
        }
        return ids.stream().map(charges::get).filter(Objects::nonNull);
    }

    /** An index key's prefix of two values, each led by its length, so that no value can run into the next. */
    private static String key(String first, String second) {
        return first.length() + ":" + first + second.length() + ":" + second;
    }

    /** A charge made in the maps, at once, in no transaction. */
    private final class Made implements ChargeRow {

        /** Makes it in the maps; false when they held it already. */
        private final Predicate<Maps> make;

        Made(Predicate<Maps> make) {
            this.make = make;
        }

        @Override
        public boolean insert() {
            boolean made = make.test(maps.get());
            maps.written();
            return made;
        }

        @Override
        public boolean joinsTransaction() {
            return false;
        }
    }

    /** A turn charge's fields in the map: user, team, session, day, reserved, turns (null while pending). */
    private static final class Turn {

        static final int TURNS = 5;

        static Object[] fields(TurnCharge charge) {
            return new Object[] {charge.user(), charge.team(), charge.session(), charge.day().toString(), charge.reserved(), charge.turns()};
        }

        static TurnCharge of(String chargeId, Object[] fields) {
            return new TurnCharge(chargeId, (String) fields[0], (String) fields[1], (String) fields[2], LocalDate.parse((String) fields[3]),
                    (Integer) fields[4], (Integer) fields[TURNS]);
        }
    }

    /** A spend charge's fields in the map: team, user, day, millionths of a dollar. */
    private static final class Spend {

        static Object[] fields(String team, String user, LocalDate day, long usdMicros) {
            return new Object[] {team, user, day.toString(), usdMicros};
        }

        static long micros(Object[] fields) {
            return (Long) fields[3];
        }
    }

    /** A pending background response's fields in the map: who created it, when (epoch milliseconds), when last taken. */
    private record Background(String user, String team, long createdAt, Long fetchedAt) {

        static Background of(Object[] fields) {
            return new Background((String) fields[0], (String) fields[1], (Long) fields[2], (Long) fields[3]);
        }

        Object[] fields() {
            return new Object[] {user, team, createdAt, fetchedAt};
        }
    }
}
