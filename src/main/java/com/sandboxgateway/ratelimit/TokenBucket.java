package com.sandboxgateway.ratelimit;

/**
 * The state of one token bucket, and the arithmetic of taking from it, once in Java (for buckets in this JVM) and
 * once in Lua ({@link #LUA}, for buckets in Redis) with the same steps side by side. A bucket holds at most
 * {@code capacity} tokens and refills continuously at {@code perMinute} per minute; a request takes one whole token.
 * A bucket never seen before is full. Time is the gateway's clock in microseconds (the same clock bucket4j's
 * client-side buckets used): a script keeps no clock of its own, the buckets of this JVM and of Redis are tested
 * with the same cases under a clock the test moves, and a replica whose clock is behind refills nothing rather
 * than taking tokens back.
 *
 * @param tokens what the bucket holds, fractions of a token included
 * @param atMicros when it last held that much
 */
public record TokenBucket(double tokens, long atMicros) {

    private static final double MICROS_PER_MINUTE = 60_000_000d;

    /**
     * The same arithmetic for a script. {@code bucket_refilled(state, capacity, rate, now)} takes the {@code HMGET}
     * of fields {@code t} and {@code at}, {@code bucket_retry_after} the microseconds until a token is back,
     * {@code bucket_store} writes a bucket and lets it expire ten seconds after it would be full again.
     */
    public static final String LUA = """
            local function bucket_refilled(state, capacity, rate, now)
              local tokens, at = tonumber(state[1]), tonumber(state[2])
              if tokens == nil or at == nil then return capacity end
              if now <= at then return tokens end
              return math.min(capacity, tokens + (now - at) * rate / 60000000)
            end
            local function bucket_retry_after(tokens, rate)
              return math.ceil((1 - tokens) * 60000000 / rate)
            end
            local function bucket_store(key, tokens, capacity, rate, now)
              redis.call('HSET', key, 't', tokens, 'at', now)
              redis.call('PEXPIRE', key, math.ceil((capacity - tokens) * 60000 / rate) + 10000)
            end
            """;

    /** A bucket never used: full. */
    public static TokenBucket full(int capacity, long nowMicros) {
        return new TokenBucket(capacity, nowMicros);
    }

    /** The bucket at {@code nowMicros}: refilled for the time since, up to its capacity. */
    public TokenBucket refilled(int capacity, int perMinute, long nowMicros) {
        if (nowMicros <= atMicros) {
            return this;
        }
        return new TokenBucket(Math.min(capacity, tokens + (double) (nowMicros - atMicros) * perMinute / MICROS_PER_MINUTE), nowMicros);
    }

    /** Whether a request may take a token now. */
    public boolean hasToken() {
        return tokens >= 1;
    }

    /** The bucket after one request took its token. */
    public TokenBucket taken() {
        return new TokenBucket(tokens - 1, atMicros);
    }

    /** Whole tokens left: the requests that may be sent right now. */
    public long remaining() {
        return (long) Math.floor(tokens);
    }

    /** Microseconds until a refused request would find a token. */
    public long retryAfterMicros(int perMinute) {
        return (long) Math.ceil((1 - tokens) * MICROS_PER_MINUTE / perMinute);
    }
}
