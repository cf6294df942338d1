package com.sandboxgateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Any string is either refused with a reason or normalized to a plain ASCII host name that parses to
 * itself again and admits itself; a wildcard never admits the bare domain it sits on. Replays
 * {@code DomainNameFuzzTestInputs/} in every build; {@code JAZZER_FUZZ=1} fuzzes (README, Fuzzing).
 */
class DomainNameFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void parsedNamesAreCanonical(FuzzedDataProvider data) {
        String entry = data.consumeRemainingAsString();
        DomainName name;
        try {
            name = DomainName.parse(entry);
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        String host = name.isWildcard() ? name.ascii().substring(2) : name.ascii();
        assertThat(host).matches("[a-z0-9-]+(\\.[a-z0-9-]+)+").hasSizeLessThanOrEqualTo(253);
        assertThat(DomainName.parse(name.ascii())).isEqualTo(name);
        assertThat(name.admits(name)).isTrue();
        if (name.isWildcard()) {
            assertThat(name.admits(DomainName.parse(host))).isFalse();
        }
    }
}
