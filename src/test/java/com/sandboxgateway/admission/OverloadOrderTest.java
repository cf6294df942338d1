package com.sandboxgateway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.FilterChain;

/**
 * Requests that wait for a place are served in the order they came: one that arrives just as a place frees up does not
 * take it from one that has been waiting (it used to, so under steady overload a waiting request could be overtaken
 * until its wait ran out and it was shed, while newer ones were served).
 */
class OverloadOrderTest {

    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final OverloadShedding shedding = new OverloadShedding(
            new OverloadProperties(true, 1, 1, Duration.ofMinutes(1), Duration.ofSeconds(1)), meters);
    private final List<String> served = new CopyOnWriteArrayList<>();

    @Test
    void shouldGiveAFreedPlaceToTheRequestThatWaitedRatherThanToOneThatJustArrived() throws Exception {
        CountDownLatch firstMayFinish = new CountDownLatch(1);
        // The first request holds the one place; when it has given it back, a new request arrives on the same thread,
        // at once, while the waiting one is only being woken.
        Thread first = Thread.ofPlatform().start(() -> {
            request("first", firstMayFinish);
            request("newcomer", null);
        });
        awaitUntil(() -> gauge(OverloadShedding.IN_FLIGHT) == 1);
        Thread waiter = Thread.ofPlatform().start(() -> request("waiter", null));
        // Parked in the semaphore's queue, not only counted as waiting.
        awaitUntil(() -> gauge(OverloadShedding.WAITING) == 1 && waiter.getState() == Thread.State.TIMED_WAITING);

        firstMayFinish.countDown();
        first.join();
        waiter.join();

        assertThat(served).as("in the order served").startsWith("first", "waiter");
    }

    private void request(String name, CountDownLatch mayFinish) {
        FilterChain chain = (request, response) -> {
            served.add(name);
            if (mayFinish != null) {
                try {
                    mayFinish.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try {
            shedding.doFilter(new MockHttpServletRequest(), new MockHttpServletResponse(), chain);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private double gauge(String name) {
        return meters.get(name).gauge().value();
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("waited a minute").isBefore(deadline);
            Thread.sleep(5);
        }
    }
}
