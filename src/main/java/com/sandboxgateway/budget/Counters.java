package com.sandboxgateway.budget;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import com.sandboxgateway.ratelimit.BucketStore;
import com.sandboxgateway.ratelimit.RateLimiter;
import com.sandboxgateway.ratelimit.TokenBucket;
import com.sandboxgateway.state.RedisScript;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.state.StateUnavailableException;

import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Budget counters and the rate-limit token buckets, changed atomically: a request's admission ({@link #admit})
 * takes its tokens, checks its team's spend and reserves its turns in one step, checking every counter it touches
 * and taking from all of them at once, or from none. In this JVM, or in Redis (one Lua script per change, so
 * replicas cannot interleave). Counters are seeded from the relational store when missing, so budgets survive
 * restarts; buckets start full.
 */
sealed interface Counters extends BucketStore {

    /**
     * Takes one token from every bucket (or from none: a refusal gives the earlier ones back), then, when all gave
     * one, checks the spend counter and, when something is left under it, reserves the turns: one round trip to
     * Redis, more only to seed a missing counter.
     *
     * @throws SeedFailed when a missing counter could not be read from the store (nothing was taken)
     * @throws StateUnavailableException when the state cannot be reached in time
     */
    Admitted admit(Ask ask);

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
     * What a request asks before it goes upstream.
     *
     * @param buckets the rate-limit buckets, in the order they are taken
     * @param spend the team's spend of the day, when the request costs money; else {@code null}
     * @param turns the turn counters; empty when the request neither reserves nor shows turns
     * @param wanted the turns to reserve; 0 to read what is left
     */
    record Ask(List<RateLimiter.Bucket> buckets, Counter spend, List<Counter> turns, long wanted) {

        public Ask {
            turns = List.copyOf(turns);
        }

        /** The counters the admission reads, the spend first. */
        List<Counter> counters() {
            List<Counter> counters = new ArrayList<>(turns.size() + 1);
            if (spend != null) {
                counters.add(spend);
            }
            counters.addAll(turns);
            return counters;
        }
    }

    /**
     * What the admission decided.
     *
     * @param take the rate limits' outcome; nothing else was checked when it refused
     * @param spendExhausted the team's spend reached its cap (no turns were reserved)
     * @param turns the turns reserved and left; {@code null} when none were asked or an earlier check refused
     */
    record Admitted(RateLimiter.Take take, boolean spendExhausted, Grant turns) {
    }

    /** A missing counter could not be read from the relational store. */
    final class SeedFailed extends StateUnavailableException {

        private final transient Counter counter;

        SeedFailed(Counter counter, Throwable cause) {
            super("the settled budgets could not be read", cause);
            this.counter = counter;
        }

        Counter counter() {
            return counter;
        }
    }

    private static long micros(Clock clock) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
    }

    /**
     * Counters and buckets of one JVM, under one lock: every operation is a few map lookups. The least recently
     * used counters are dropped beyond a bound; a dropped counter is seeded again from the store when needed.
     */
    final class Local implements Counters {

        private static final int MAX_COUNTERS = 100_000;

        private final Map<String, Long> used = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > MAX_COUNTERS;
            }
        };
        /** Buckets dropped beyond the bound start full again: only the least recently used, long idle ones are. */
        private final Map<String, TokenBucket> buckets = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, TokenBucket> eldest) {
                return size() > MAX_COUNTERS;
            }
        };
        private final ReentrantLock lock = new ReentrantLock();
        private final Clock clock;

        Local(Clock clock) {
            this.clock = clock;
        }

        @Override
        public Admitted admit(Ask ask) {
            seed(ask.counters());
            long now = micros(clock);
            lock.lock();
            try {
                List<RateLimiter.Bucket> asked = ask.buckets();
                TokenBucket[] after = new TokenBucket[asked.size()];
                for (int i = 0; i < after.length; i++) {
                    RateLimiter.Bucket bucket = asked.get(i);
                    TokenBucket held = bucketAt(bucket, now);
                    if (!held.hasToken()) {
                        RateLimiter.Take refused = RateLimiter.refused(bucket, held.remaining(),
                                held.retryAfterMicros(bucket.perMinute()));
                        return new Admitted(refused, false, null);
                    }
                    after[i] = held.taken();
                }
                long[] remaining = new long[after.length];
                for (int i = 0; i < after.length; i++) {
                    buckets.put(asked.get(i).key(), after[i]);
                    remaining[i] = after[i].remaining();
                }
                RateLimiter.Take take = RateLimiter.allowed(asked, remaining);
                if (ask.spend() != null && left(List.of(ask.spend())) <= 0) {
                    return new Admitted(take, true, null);
                }
                return new Admitted(take, false, ask.turns().isEmpty() ? null : reserveHeld(ask.turns(), ask.wanted()));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public long available(RateLimiter.Bucket bucket) {
            long now = micros(clock);
            lock.lock();
            try {
                return bucketAt(bucket, now).remaining();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void remove(RateLimiter.Bucket bucket) {
            lock.lock();
            try {
                buckets.remove(bucket.key());
            } finally {
                lock.unlock();
            }
        }

        /** A bucket as it is now; the caller holds the lock. */
        private TokenBucket bucketAt(RateLimiter.Bucket bucket, long now) {
            TokenBucket held = buckets.get(bucket.key());
            return held == null ? TokenBucket.full(bucket.capacity(), now)
                    : held.refilled(bucket.capacity(), bucket.perMinute(), now);
        }

        /** Takes up to {@code wanted} from every counter, as much as the fullest one leaves; the caller holds the lock. */
        private Grant reserveHeld(List<Counter> counters, long wanted) {
            long left = left(counters);
            long granted = Math.max(0, Math.min(wanted, left));
            if (granted > 0) {
                counters.forEach(counter -> used.merge(counter.key(), granted, Long::sum));
            }
            return new Grant(granted, left - granted);
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
                        throw new SeedFailed(counter, e);
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
     * Counters and buckets in Redis. Each change is one Lua script, sent by digest; a script that finds a counter
     * missing changes nothing and names it, the missing counters are seeded with {@code SET NX} (a racing replica's
     * seed wins, they are equal) and the script runs again. A bucket is a hash ({@code t} tokens, {@code at} its
     * time) that expires once it would be full again. A request's keys span its user and its team, so the gateway
     * runs on one Redis (or a primary with replicas), not on a cluster that splits keys across nodes.
     */
    final class Redis implements Counters {

        /**
         * KEYS: the buckets, then the spend counter (if checked), then the turn counters. ARGV: now (µs), bucket
         * count, 1 if the spend is checked else 0, turns wanted, then per bucket its capacity and rate, then per
         * counter its limit and ttl (s). Returns {-1, counter index} (a counter is missing, nothing changed),
         * {0, bucket index, its tokens, µs until one is back} (refused, nothing taken), or {1 or 2 (spend exhausted),
         * 1 if turns were reserved, granted, left, then the tokens each bucket holds after the take}.
         */
        private static final RedisScript ADMIT = new RedisScript(TokenBucket.LUA + """
                local now, nb, ns, wanted = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
                local used = {}
                for i = nb + 1, #KEYS do
                  local value = redis.call('GET', KEYS[i])
                  if not value then return {-1, i - nb} end
                  used[i] = tonumber(value)
                end
                local tokens = {}
                for b = 1, nb do
                  local capacity, rate = tonumber(ARGV[3 + 2 * b]), tonumber(ARGV[4 + 2 * b])
                  tokens[b] = bucket_refilled(redis.call('HMGET', KEYS[b], 't', 'at'), capacity, rate, now)
                  if tokens[b] < 1 then return {0, b, math.floor(tokens[b]), bucket_retry_after(tokens[b], rate)} end
                end
                local result = {1, 0, 0, 0}
                for b = 1, nb do
                  bucket_store(KEYS[b], tokens[b] - 1, tonumber(ARGV[3 + 2 * b]), tonumber(ARGV[4 + 2 * b]), now)
                  result[4 + b] = math.floor(tokens[b] - 1)
                end
                local left = nil
                for i = nb + 1, #KEYS do
                  local arg = 5 + 2 * nb + 2 * (i - nb - 1)
                  local l = tonumber(ARGV[arg]) - used[i]
                  redis.call('EXPIRE', KEYS[i], ARGV[arg + 1])
                  if i - nb <= ns then
                    if l <= 0 then result[1] = 2 return result end
                  elseif left == nil or l < left then left = l end
                end
                if left ~= nil then
                  local granted = math.max(0, math.min(wanted, left))
                  if granted ~= 0 then
                    for i = nb + ns + 1, #KEYS do redis.call('INCRBY', KEYS[i], granted) end
                  end
                  result[2], result[3], result[4] = 1, granted, left - granted
                end
                return result
                """);

        /** KEYS: counters; ARGV: per key its limit and ttl (s). Returns {0, left} or {-1, index}. */
        private static final RedisScript REMAINING = new RedisScript("""
                local left = nil
                for i, key in ipairs(KEYS) do
                  local used = redis.call('GET', key)
                  if not used then return {-1, i} end
                  local l = tonumber(ARGV[2 * i - 1]) - tonumber(used)
                  if left == nil or l < left then left = l end
                end
                for i, key in ipairs(KEYS) do
                  redis.call('EXPIRE', key, ARGV[2 * i])
                end
                return {0, left}
                """);

        /** KEYS: counters; ARGV: delta, then per key its ttl (s). Returns {0, 0} or {-1, index}. */
        private static final RedisScript ADD = new RedisScript("""
                for i, key in ipairs(KEYS) do
                  if redis.call('EXISTS', key) == 0 then return {-1, i} end
                end
                for i, key in ipairs(KEYS) do
                  redis.call('INCRBY', key, ARGV[1])
                  redis.call('EXPIRE', key, ARGV[i + 1])
                end
                return {0, 0}
                """);

        /**
         * KEYS: counters; ARGV: per key its delta and ttl (s). A missing key is left missing. Its keys span a user's
         * and a team's hash tags (moves need no atomicity across them), so on a Redis Cluster it would be sent once
         * per slot.
         */
        private static final RedisScript ADD_ALL = new RedisScript("""
                for i, key in ipairs(KEYS) do
                  if redis.call('EXISTS', key) == 1 then
                    redis.call('INCRBY', key, ARGV[2 * i - 1])
                    redis.call('EXPIRE', key, ARGV[2 * i])
                  end
                end
                return {0, 0}
                """);

        private final RedisState redis;
        private final Clock clock;

        Redis(RedisState redis, Clock clock) {
            this.redis = redis;
            this.clock = clock;
        }

        @Override
        public Admitted admit(Ask ask) {
            List<RateLimiter.Bucket> buckets = ask.buckets();
            List<Counter> counters = ask.counters();
            List<String> keys = new ArrayList<>(buckets.size() + counters.size());
            List<String> args = new ArrayList<>(List.of(Long.toString(micros(clock)), Integer.toString(buckets.size()),
                    ask.spend() != null ? "1" : "0", Long.toString(ask.wanted())));
            for (RateLimiter.Bucket bucket : buckets) {
                keys.add(bucket.key());
                args.add(Integer.toString(bucket.capacity()));
                args.add(Integer.toString(bucket.perMinute()));
            }
            for (Counter counter : counters) {
                keys.add(counter.key());
                args.add(Long.toString(counter.limit()));
                args.add(Long.toString(counter.ttl().toSeconds()));
            }
            List<Long> result = run(ADMIT, keys.toArray(String[]::new), args, counters);
            if (result.get(0) == 0) {
                RateLimiter.Bucket refusing = buckets.get(result.get(1).intValue() - 1);
                return new Admitted(RateLimiter.refused(refusing, result.get(2), result.get(3)), false, null);
            }
            long[] remaining = new long[buckets.size()];
            for (int i = 0; i < remaining.length; i++) {
                remaining[i] = result.get(4 + i);
            }
            return new Admitted(RateLimiter.allowed(buckets, remaining), result.get(0) == 2,
                    result.get(1) == 1 ? new Grant(result.get(2), result.get(3)) : null);
        }

        @Override
        public long available(RateLimiter.Bucket bucket) {
            try {
                List<String> state = redis.connections().text().sync().hmget(bucket.key(), "t", "at").stream()
                        .map(value -> value.getValueOrElse(null)).toList();
                long now = micros(clock);
                TokenBucket held = state.contains(null) ? TokenBucket.full(bucket.capacity(), now)
                        : new TokenBucket(Double.parseDouble(state.get(0)), Long.parseLong(state.get(1)));
                return held.refilled(bucket.capacity(), bucket.perMinute(), now).remaining();
            } catch (StateUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new StateUnavailableException("the rate-limit buckets could not be read", e);
            }
        }

        @Override
        public void remove(RateLimiter.Bucket bucket) {
            try {
                redis.connections().text().sync().del(bucket.key());
            } catch (StateUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new StateUnavailableException("the rate-limit buckets could not be reset", e);
            }
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
            List<String> args = new ArrayList<>();
            for (Counter counter : counters) {
                args.add(Long.toString(counter.limit()));
                args.add(Long.toString(counter.ttl().toSeconds()));
            }
            return Math.max(0, run(REMAINING, counters, args).get(1));
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
                ADD_ALL.run(redis.connections().text().sync(), keys, values);
            } catch (StateUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new StateUnavailableException("the budget counters could not be updated", e);
            }
        }

        private List<Long> run(RedisScript script, List<Counter> counters, List<String> args) {
            return run(script, counters.stream().map(Counter::key).toArray(String[]::new), args, counters);
        }

        /** Runs a script whose answer {-1, i} says the i-th of {@code counters} is missing: seeds it, and runs again. */
        private List<Long> run(RedisScript script, String[] keys, List<String> args, List<Counter> counters) {
            String[] values = args.toArray(String[]::new);
            try {
                RedisCommands<String, String> commands = redis.connections().text().sync();
                for (int attempt = 0; ; attempt++) {
                    List<Long> result = script.run(commands, keys, values);
                    if (result.get(0) != -1) {
                        return result;
                    }
                    if (attempt == counters.size()) {
                        throw new StateUnavailableException("budget counters vanished while being seeded", null);
                    }
                    Counter missing = counters.get(result.get(1).intValue() - 1);
                    commands.set(missing.key(), Long.toString(seed(missing)), SetArgs.Builder.nx().ex(missing.ttl()));
                }
            } catch (StateUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new StateUnavailableException("the budget counters could not be updated", e);
            }
        }

        private static long seed(Counter counter) {
            try {
                return counter.seed().getAsLong();
            } catch (RuntimeException e) {
                throw new SeedFailed(counter, e);
            }
        }
    }
}
