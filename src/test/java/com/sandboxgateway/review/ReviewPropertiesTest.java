package com.sandboxgateway.review;

import static com.sandboxgateway.support.Settings.assertRefused;

import org.junit.jupiter.api.Test;

class ReviewPropertiesTest {

    @Test
    void shouldRefuseAFailureStreakOfZero() {
        assertRefused(() -> new ReviewProperties(null, null, 0), "gateway.review.failure-streak", "0");
    }
}
