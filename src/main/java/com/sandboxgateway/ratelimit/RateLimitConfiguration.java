package com.sandboxgateway.ratelimit;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;

/** The administrators' view of the buckets, and the answer to a request's rate limits. */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

    @Bean
    RateLimiter rateLimiter(BucketStore buckets) {
        return new RateLimiter(buckets);
    }

    @Bean
    RateLimits rateLimits(MeterRegistry meters) {
        return new RateLimits(meters);
    }
}
