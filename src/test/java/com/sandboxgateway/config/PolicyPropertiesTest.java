package com.sandboxgateway.config;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The org policy's records refuse, as they are bound, each value no gateway could work with. */
class PolicyPropertiesTest {

    private static final PolicyProperties.FileUrls FILE_URLS = new PolicyProperties.FileUrls(List.of(), Duration.ofSeconds(5),
            Duration.ofSeconds(30));

    @Test
    void shouldRefuseRateLimitsAndTurnBudgetsBelowOne() {
        assertRefused(() -> new PolicyProperties.RateLimit(0, 60, 1200), "gateway.policy.org.rate-limit.requests-per-minute", "0");
        assertRefused(() -> new PolicyProperties.RateLimit(120, -1, 1200), "gateway.policy.org.rate-limit.burst", "-1");
        assertRefused(() -> new PolicyProperties.RateLimit(120, 60, 0), "gateway.policy.org.rate-limit.team-requests-per-minute", "0");
        assertRefused(() -> new PolicyProperties.Turns(0, 500, false, null), "gateway.policy.org.turns.max-per-session", "0");
        assertRefused(() -> new PolicyProperties.Turns(20, 0, false, null), "gateway.policy.org.turns.max-per-user-per-day", "0");
        assertRefused(() -> new PolicyProperties.Turns(20, 500, false, 3), "gateway.policy.org.turns.stop-after-failures", "3");
    }

    @Test
    void shouldRefuseANegativeSpendCapButAcceptZero() {
        assertRefused(() -> new PolicyProperties.Spend(new BigDecimal("-0.01")), "gateway.policy.org.spend.max-usd-per-team-per-day",
                "-0.01");

        assertThat(new PolicyProperties.Spend(BigDecimal.ZERO).maxUsdPerTeamPerDay()).isZero();
    }

    @Test
    void shouldRefuseFileLimitsThatAdmitNothing() {
        assertRefused(() -> files(DataSize.ofBytes(0), Duration.ofHours(1), 10000, 100), "gateway.policy.org.files.max-upload-size", "0B");
        assertRefused(() -> files(DataSize.ofMegabytes(100), Duration.ofHours(-1), 10000, 100), "gateway.policy.org.files.default-expiry",
                "PT-1H");
        assertRefused(() -> files(DataSize.ofMegabytes(100), Duration.ofHours(1), 0, 100), "gateway.policy.org.files.max-archive-entries",
                "0");
        assertRefused(() -> files(DataSize.ofMegabytes(100), Duration.ofHours(1), 10000, 0), "gateway.policy.org.files.max-expansion-ratio",
                "0");
        assertRefused(() -> new PolicyProperties.FileUrls(List.of(), Duration.ZERO, Duration.ofSeconds(30)),
                "gateway.policy.org.files.file-urls.connect-timeout", "PT0S");
    }

    @Test
    void shouldNameTheDomainEntryAndTheMemoryTierThatDoNotExist() {
        assertRefused(() -> new PolicyProperties.Network(List.of("pypi.org", "https://pypi.org")),
                "gateway.policy.org.network.allowed-domains", "https://pypi.org");
        assertRefused(() -> new PolicyProperties.Containers(List.of("1g", "2g"), 20), "gateway.policy.org.containers.allowed-memory-limits",
                "2g");
        assertRefused(() -> new PolicyProperties.Containers(List.of("1g"), 0), "gateway.policy.org.containers.max-idle-minutes", "0");
    }

    private static PolicyProperties.Files files(DataSize maxUploadSize, Duration defaultExpiry, int maxArchiveEntries, int maxExpansionRatio) {
        return new PolicyProperties.Files(maxUploadSize, defaultExpiry, Duration.ofDays(7), false, List.of("txt"),
                PolicyProperties.ArchivePolicy.SANITIZE, false, DataSize.ofGigabytes(1), maxArchiveEntries, maxExpansionRatio, FILE_URLS);
    }
}
