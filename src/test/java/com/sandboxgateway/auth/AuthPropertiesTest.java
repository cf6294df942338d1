package com.sandboxgateway.auth;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class AuthPropertiesTest {

    private static final String HASH = "a1c877a2ef8773e2f7e235d8612068d713b1ec505f79170372191311b7cadaf5";

    @Test
    void shouldNameTheEntryThatHasNoOwnerOrNotExactlyOneKey() {
        assertRefused(() -> keys(false, entry(HASH, null, "alice", "analytics"), entry(HASH, null, "bob", null)), "gateway.auth.keys[1]",
                null);
        assertRefused(() -> keys(true, entry(HASH, "sk-dev", "alice", "analytics")), "gateway.auth.keys[0]", null);
        assertRefused(() -> keys(true, entry(null, null, "alice", "analytics")), "gateway.auth.keys[0]", null);
    }

    @Test
    void shouldRefuseAPlainKeyUnlessAllowedAndAMalformedHashWithoutShowingEither() {
        assertRefused(() -> keys(false, entry(null, "sk-dev-secret", "root", "platform")), "gateway.auth.keys[0].key", null);
        assertThatThrownBy(() -> keys(false, entry("sk-pasted-by-mistake", null, "root", "platform")))
                .hasMessageContaining("gateway.auth.keys[0].sha256").hasMessageContaining("64 hex characters")
                .hasMessageNotContaining("sk-pasted-by-mistake");

        assertThat(keys(true, entry(null, "sk-dev-secret", "root", "platform")).keys()).hasSize(1);
    }

    private static AuthProperties keys(boolean allowPlainKeys, AuthProperties.KeyEntry... entries) {
        return new AuthProperties(List.of(entries), allowPlainKeys);
    }

    private static AuthProperties.KeyEntry entry(String sha256, String key, String user, String team) {
        return new AuthProperties.KeyEntry(sha256, key, user, team, Set.of("user"));
    }
}
