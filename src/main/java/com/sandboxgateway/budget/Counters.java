package com.sandboxgateway.budget;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.state.StateUnavailableException;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Budget counters, changed atomically: a reservation checks every counter it touches and takes from all
 * of them at once, or from none. In this JVM, or in Redis (one Lua script per change, so replicas cannot
 * interleave). Counters are seeded from the relational store when missing, so budgets survive restarts.
 */
sealed interface Counters {

    /**
     * Takes up to {@code wanted} from every counter, as much as the fullest one leaves.
     *
     * @return what was taken (0 when a counter is at its limit) and what is left after it
     * @throws StateUnavailableException when the counters cannot be reached in time
     */
    Grant reserve(List<Counter> counters, long wanted);

    /** Adds {@code delta} (negative to give back) to every counter. */
    void add(List<Counter> counters, long delta);

    /** How much is left under the tightest of the counters. */
    long remaining(List<Counter> counters);

    /**
     * Makes the moves of one answer, all at once (one Redis round trip), once the charges they follow from are
     * durable. A counter that is missing is left so, not seeded: its next use seeds it from the store, which holds
     * those charges already, so seeding it here would count them twice.
     */
    void addAll(List<Move> moves);

    /** @param left what is left under the tightest counter after the reservation */
    record Grant(long granted, long left) {
    }

    /** {@code delta} (negative to give back) to add to every one of {@code counters}. */
    record Move(List<Counter> counters, long delta) {
    }

    /** The moves summed per counter key, in first-seen order, leaving out the keys they leave unchanged. */
    private static Map<Counter, Long> perCounter(List<Move> moves) {
        Map<String, Counter> byKey = new LinkedHashMap<>();
        Map<String, Long> deltas = new LinkedHashMap<>();
        for (Move move : moves) {
            for (Counter counter : move.counters()) {
                byKey.putIfAbsent(counter.key(), counter);
                deltas.merge(counter.key(), move.delta(), Long::sum);
            }
        }
        Map<Counter, Long> summed = new LinkedHashMap<>();
        deltas.forEach((key, delta) -> {
            if (delta != 0) {
                summed.put(byKey.get(key), delta);
            }
        });
        return summed;
    }

    /**
     * Counters of one JVM, under one lock: every operation is a few map lookups. The least recently used
     * counters are dropped beyond a bound; a dropped counter is seeded again from the store when needed.
     */
    final class Local implements Counters {

        private static final int MAX_COUNTERS = 100_000;

        private final Map<String, Long> used = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > MAX_COUNTERS;
            }
        };
        private final ReentrantLock lock = new ReentrantLock();

        @Override
        public Grant reserve(List<Counter> counters, long wanted) {
            seed(counters);
            lock.lock();
            try {
                long left = left(counters);
                long granted = Math.max(0, Math.min(wanted, left));
                if (granted > 0) {
                    counters.forEach(counter -> used.merge(counter.key(), granted, Long::sum));
                }
                return new Grant(granted, left - granted);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void add(List<Counter> counters, long delta) {
            seed(counters);
            lock.lock();
            try {
                // Usage is never below zero: giving back more than a counter holds (a reset that clears charges
                // this JVM never counted, from a store shared with another) leaves it empty, not in credit.
                counters.forEach(counter -> used.merge(counter.key(), delta, (held, change) -> Math.max(0, held + change)));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void addAll(List<Move> moves) {
            Map<Counter, Long> deltas = perCounter(moves);
            lock.lock();
            try {
                deltas.forEach((counter, delta) -> used.computeIfPresent(counter.key(), (key, held) -> Math.max(0, held + delta)));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public long remaining(List<Counter> counters) {
            seed(counters);
            lock.lock();
            try {
                return Math.max(0, left(counters));
            } finally {
                lock.unlock();
            }
        }

        private long left(List<Counter> counters) {
            long left = Long.MAX_VALUE;
            for (Counter counter : counters) {
                left = Math.min(left, counter.limit() - used.getOrDefault(counter.key(), 0L));
            }
            return left;
        }

        /** Reads missing counters from the store outside the lock; a racing seed of the same key is dropped. */
        private void seed(List<Counter> counters) {
            for (Counter counter : counters) {
                boolean missing;
                lock.lock();
                try {
                    missing = !used.containsKey(counter.key());
                } finally {
                    lock.unlock();
                }
                if (missing) {
                    long seed;
                    try {
                        seed = counter.seed().getAsLong();
                    } catch (RuntimeException e) {
                        throw new StateUnavailableException("the settled budgets could not be read", e);
                    }
                    lock.lock();
                    try {
                        used.putIfAbsent(counter.key(), seed);
                    } finally {
                        lock.unlock();
                    }
                }
            }
        }
    }

    /**
     * Counters in Redis. Each change is one Lua script over keys sharing a hash tag; a script that finds
     * a key missing changes nothing and names it, the missing keys are seeded with {@code SET NX} (a
     * racing replica's seed wins, they are equal) and the script runs again.
     */
    final class Redis implements Counters {

        /** KEYS: counters; ARGV: wanted, then per key its limit and ttl (s). Returns {granted, left} or {-1, index}. */
        private static final String RESERVE = """
                local left = nil
                for i, key in ipairs(KEYS) do
                  local used = redis.call('GET', key)
                  if not used then return {-1, i} end
                  local l = tonumber(ARGV[2 * i]) - tonumber(used)
                  if left == nil or l < left then left = l end
                end
                local granted = math.max(0, math.min(tonumber(ARGV[1]), left))
                for i, key in ipairs(KEYS) do
                  if granted ~= 0 then redis.call('INCRBY', key, granted) end
                  redis.call('EXPIRE', key, ARGV[2 * i + 1])
                end
                return {granted, left - granted}
                """;

        /** KEYS: counters; ARGV: delta, then per key its ttl (s). Returns {0, 0} or {-1, index}. */
        private static final String ADD = """
                for i, key in ipairs(KEYS) do
                  if redis.call('EXISTS', key) == 0 then return {-1, i} end
                end
                for i, key in ipairs(KEYS) do
                  redis.call('INCRBY', key, ARGV[1])
                  redis.call('EXPIRE', key, ARGV[i + 1])
                end
                return {0, 0}
                """;

        /**
         * KEYS: counters; ARGV: per key its delta and ttl (s). A missing key is left missing. Its keys span a user's
         * and a team's hash tags (moves need no atomicity across them), so on a Redis Cluster it would be sent once
         * per slot.
         */
        private static final String ADD_ALL = """
                for i, key in ipairs(KEYS) do
                  if redis.call('EXISTS', key) == 1 then
                    redis.call('INCRBY', key, ARGV[2 * i - 1])
                    redis.call('EXPIRE', key, ARGV[2 * i])
                  end
                end
                return 0
                """;

        private final RedisState redis;

        Redis(RedisState redis) {
            this.redis = redis;
        }

        @Override
        public Grant reserve(List<Counter> counters, long wanted) {
            List<String> args = new ArrayList<>();
            args.add(Long.toString(wanted));
            for (Counter counter : counters) {
                args.add(Long.toString(counter.limit()));
                args.add(Long.toString(counter.ttl().toSeconds()));
            }
            List<Long> result = run(RESERVE, counters, args);
            return new Grant(result.get(0), result.get(1));
        }

        @Override
        public void add(List<Counter> counters, long delta) {
            List<String> args = new ArrayList<>();
            args.add(Long.toString(delta));
            counters.forEach(counter -> args.add(Long.toString(counter.ttl().toSeconds())));
            run(ADD, counters, args);
        }

        @Override
        public long remaining(List<Counter> counters) {
            return Math.max(0, reserve(counters, 0).left());
        }

        @Override
        public void addAll(List<Move> moves) {
            Map<Counter, Long> deltas = perCounter(moves);
            if (deltas.isEmpty()) {
                return;
            }
            String[] keys = deltas.keySet().stream().map(Counter::key).toArray(String[]::new);
            String[] values = deltas.entrySet().stream()
                    .flatMap(move -> Stream.of(Long.toString(move.getValue()), Long.toString(move.getKey().ttl().toSeconds())))
                    .toArray(String[]::new);
            try {
                redis.connections().text().sync().eval(ADD_ALL, ScriptOutputType.INTEGER, keys, values);
            } catch (StateUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new StateUnavailableException("the budget counters could not be updated", e);
            }
        }

        private List<Long> run(String script, List<Counter> counters, List<String> args) {
            String[] keys = counters.stream().map(Counter::key).toArray(String[]::new);
            String[] values = args.toArray(String[]::new);
            try {
                RedisCommands<String, String> commands = redis.connections().text().sync();
                for (int attempt = 0; ; attempt++) {
                    List<Long> result = commands.eval(script, ScriptOutputType.MULTI, keys, values);
                    if (result.get(0) != -1) {
                        return result;
                    }
                    if (attempt == counters.size()) {
                        throw new StateUnavailableException("budget counters vanished while being seeded", null);
                    }
                    Counter missing = counters.get(result.get(1).intValue() - 1);
                    commands.set(missing.key(), Long.toString(missing.seed().getAsLong()),
                            SetArgs.Builder.nx().ex(missing.ttl()));
                }
            } catch (StateUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new StateUnavailableException("the budget counters could not be updated", e);
            }
        }
    }
}
