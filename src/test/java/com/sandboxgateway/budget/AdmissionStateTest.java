package com.sandboxgateway.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.sandboxgateway.ratelimit.RateLimiter;
import com.sandboxgateway.ratelimit.RateLimiter.Scope;
import com.sandboxgateway.state.RedisState;
import com.sandboxgateway.support.MovableClock;

import io.lettuce.core.RedisURI;

/**
 * The admission's token buckets and budget checks, the same cases on both backends: in this JVM, and in the local
 * Redis (database 14, its own) through the Lua script. The clock is the test's, so refills are exact and no test waits.
 */
class AdmissionStateTest {

    private static final int REDIS_DB = 14;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T09:00:00Z"));
    private final String id = UUID.randomUUID().toString();
    private RedisState redis;

    enum Backend { MEMORY, REDIS }

    @AfterEach
    void closeRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldLetABurstThroughThenRefuseUntilATokenIsBack(Backend backend) {
        Counters counters = counters(backend);
        RateLimiter.Bucket user = bucket(Scope.USER, 3, 60);
        Counters.Ask ask = ask(List.of(user, bucket(Scope.TEAM, 100, 100)));

        List<Long> remaining = List.of(take(counters, ask).remaining(), take(counters, ask).remaining(), take(counters, ask).remaining());
        RateLimiter.Take refused = take(counters, ask);

        assertThat(remaining).as("a burst of the bucket's capacity").containsExactly(2L, 1L, 0L);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.scope()).isEqualTo(Scope.USER);
        assertThat(refused.remaining()).isZero();
        assertThat(refused.retryAfter()).as("one token at 60 per minute").isEqualTo(Duration.ofSeconds(1));
        assertThat(refused.reset()).as("three tokens to refill").isEqualTo(Duration.ofSeconds(3));
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldRefillContinuouslyUpToTheCapacity(Backend backend) {
        Counters counters = counters(backend);
        RateLimiter.Bucket user = bucket(Scope.USER, 2, 60);
        Counters.Ask ask = ask(List.of(user, bucket(Scope.TEAM, 100, 100)));
        take(counters, ask);
        take(counters, ask);

        clock.advance(Duration.ofMillis(400));
        RateLimiter.Take early = take(counters, ask);
        clock.advance(Duration.ofMillis(600));
        RateLimiter.Take onTime = take(counters, ask);
        clock.advance(Duration.ofMinutes(10));
        RateLimiter.Take afterIdling = take(counters, ask);

        assertThat(early.allowed()).as("0.4 of a token").isFalse();
        assertThat(early.retryAfter()).isEqualTo(Duration.ofMillis(600));
        assertThat(onTime.allowed()).as("a whole token after a second").isTrue();
        assertThat(onTime.remaining()).isZero();
        assertThat(afterIdling.remaining()).as("never more than the capacity").isEqualTo(1);
        assertThat(counters.available(user)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldGiveTheEarlierTokensBackWhenALaterBucketRefuses(Backend backend) {
        Counters counters = counters(backend);
        RateLimiter.Bucket key = bucket(Scope.KEY, 5, 5);
        RateLimiter.Bucket user = bucket(Scope.USER, 5, 60);
        Counters.Ask ask = ask(List.of(key, user, bucket(Scope.TEAM, 1, 1)));

        RateLimiter.Take allowed = take(counters, ask);
        RateLimiter.Take refused = take(counters, ask);

        assertThat(allowed.allowed()).isTrue();
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.scope()).isEqualTo(Scope.TEAM);
        assertThat(refused.retryAfter()).as("one token at 1 per minute").isEqualTo(Duration.ofMinutes(1));
        assertThat(counters.available(key)).as("the key's token of the refused request is back").isEqualTo(4);
        assertThat(counters.available(user)).as("the user's too").isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldShowTheKeysBucketWhenItHasLessLeftThanTheUsers(Backend backend) {
        Counters counters = counters(backend);
        Counters.Ask ask = ask(List.of(bucket(Scope.KEY, 2, 2), bucket(Scope.USER, 10, 60), bucket(Scope.TEAM, 100, 100)));

        RateLimiter.Take first = take(counters, ask);
        take(counters, ask);
        RateLimiter.Take refused = take(counters, ask);

        assertThat(first.scope()).isEqualTo(Scope.KEY);
        assertThat(first.remaining()).isEqualTo(1);
        assertThat(refused.scope()).isEqualTo(Scope.KEY);
        assertThat(refused.allowed()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldReserveTurnsUpToTheTightestCounter(Backend backend) {
        Counters counters = counters(backend);
        List<Counter> turns = List.of(counter("day", 10, 0), counter("session", 5, 1));

        Counters.Admitted first = counters.admit(new Counters.Ask(buckets(), null, turns, 3));
        Counters.Admitted second = counters.admit(new Counters.Ask(buckets(), null, turns, 3));
        Counters.Admitted none = counters.admit(new Counters.Ask(buckets(), null, turns, 3));
        Counters.Admitted read = counters.admit(new Counters.Ask(buckets(), null, turns, 0));

        assertThat(first.turns()).as("the session was seeded with 1 used").isEqualTo(new Counters.Grant(3, 1));
        assertThat(second.turns()).isEqualTo(new Counters.Grant(1, 0));
        assertThat(none.turns()).isEqualTo(new Counters.Grant(0, 0));
        assertThat(read.turns()).isEqualTo(new Counters.Grant(0, 0));
        assertThat(counters.remaining(List.of(turns.get(0)))).as("the day's counter took the same turns").isEqualTo(6);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldReserveNoTurnsOnceTheSpendReachedItsCap(Backend backend) {
        Counters counters = counters(backend);
        List<Counter> turns = List.of(counter("day", 10, 0));
        RateLimiter.Bucket user = bucket(Scope.USER, 5, 60);

        Counters.Admitted admitted = counters.admit(new Counters.Ask(List.of(user, bucket(Scope.TEAM, 100, 100)),
                counter("spend", 1_000, 1_000), turns, 3));

        assertThat(admitted.take().allowed()).isTrue();
        assertThat(admitted.spendExhausted()).isTrue();
        assertThat(admitted.turns()).isNull();
        assertThat(counters.remaining(turns)).isEqualTo(10);
        assertThat(counters.available(user)).as("the token stays taken, as when the spend step refused").isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldTakeNothingWhenACounterCannotBeSeeded(Backend backend) {
        Counters counters = counters(backend);
        RateLimiter.Bucket user = bucket(Scope.USER, 5, 60);
        Counter unreadable = new Counter("turns:{" + id + "}:d:unreadable", 10, Duration.ofMinutes(5), () -> {
            throw new IllegalStateException("the database is down");
        });

        assertThatThrownBy(() -> counters.admit(new Counters.Ask(List.of(user, bucket(Scope.TEAM, 100, 100)), null,
                List.of(unreadable), 1)))
                .isInstanceOfSatisfying(Counters.SeedFailed.class, e -> assertThat(e.counter()).isSameAs(unreadable));
        assertThat(counters.available(user)).isEqualTo(5);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void shouldStartARemovedBucketFull(Backend backend) {
        Counters counters = counters(backend);
        RateLimiter.Bucket user = bucket(Scope.USER, 2, 60);
        Counters.Ask ask = ask(List.of(user, bucket(Scope.TEAM, 100, 100)));
        take(counters, ask);
        take(counters, ask);

        counters.remove(user);

        assertThat(counters.available(user)).isEqualTo(2);
    }

    @Test
    void shouldSendTheScriptAgainWhenRedisForgotIt() {
        Counters counters = counters(Backend.REDIS);
        Counters.Ask ask = ask(List.of(bucket(Scope.USER, 5, 60), bucket(Scope.TEAM, 100, 100)));
        take(counters, ask);

        redis.connections().text().sync().scriptFlush();
        RateLimiter.Take afterFlush = take(counters, ask);

        assertThat(afterFlush.allowed()).isTrue();
        assertThat(afterFlush.remaining()).as("the bucket itself was kept").isEqualTo(3);
    }

    private Counters counters(Backend backend) {
        if (backend == Backend.MEMORY) {
            return new Counters.Local(clock);
        }
        redis = new RedisState(RedisURI.create("redis://127.0.0.1:6379/" + REDIS_DB), Duration.ofSeconds(2));
        return new Counters.Redis(redis, clock);
    }

    private RateLimiter.Bucket bucket(Scope scope, int capacity, int perMinute) {
        return new RateLimiter.Bucket(scope, "bucket:" + scope + ":" + id, capacity, perMinute);
    }

    private List<RateLimiter.Bucket> buckets() {
        return List.of(bucket(Scope.USER, 100, 100), bucket(Scope.TEAM, 100, 100));
    }

    private Counters.Ask ask(List<RateLimiter.Bucket> buckets) {
        return new Counters.Ask(buckets, null, List.of(), 0);
    }

    private Counter counter(String name, long limit, long seed) {
        return new Counter("turns:{" + id + "}:" + name, limit, Duration.ofMinutes(5), () -> seed);
    }

    private static RateLimiter.Take take(Counters counters, Counters.Ask ask) {
        return counters.admit(ask).take();
    }
}
