package com.sandboxgateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.support.MovableClock;

/** Console sessions end when unused, when too old, and on logout; a token names one session only. */
class ConsoleSessionsTest {

    private static final Principal ROOT = new Principal("root", "platform", Set.of("admin"));

    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T09:00:00Z"));
    private final ConsoleSessions sessions = new ConsoleSessions(
            new ConsoleProperties(Duration.ofMinutes(30), Duration.ofHours(12), 5000), clock);

    @Test
    void shouldResumeASessionUntilItIsIdleForLongerThanTheTimeout() {
        String token = sessions.start(ROOT);

        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.resume(token)).hasValueSatisfying(user -> assertThat(user.principal()).isEqualTo(ROOT));
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.resume(token)).as("used 29 minutes ago").isPresent();
        clock.advance(Duration.ofMinutes(31));
        assertThat(sessions.resume(token)).as("unused for 31 minutes").isEmpty();
    }

    @Test
    void shouldEndASessionAtItsMaximumAgeHoweverMuchItIsUsed() {
        String token = sessions.start(ROOT);
        for (int i = 0; i < 47; i++) {
            clock.advance(Duration.ofMinutes(15));
            assertThat(sessions.resume(token)).isPresent();
        }
        clock.advance(Duration.ofMinutes(16));

        assertThat(sessions.resume(token)).as("12 h 1 min after login").isEmpty();
    }

    @Test
    void shouldEndASessionOnLogoutAndKnowNoOtherToken() {
        String token = sessions.start(ROOT);
        String other = sessions.start(ROOT);

        sessions.end(token);

        assertThat(sessions.resume(token)).isEmpty();
        assertThat(sessions.resume(other)).isPresent();
        assertThat(sessions.resume("not-a-token")).isEmpty();
        assertThat(sessions.resume(null)).isEmpty();
        assertThat(sessions.resume(other).orElseThrow().csrfToken()).isNotEqualTo(other).hasSizeGreaterThanOrEqualTo(43);
    }
}
