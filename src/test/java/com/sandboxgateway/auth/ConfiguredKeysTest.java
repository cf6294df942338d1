package com.sandboxgateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Sha256;

/** The keys of the configuration file: hashed, and refused at start-up when ambiguous. */
class ConfiguredKeysTest {

    private static final String ALICE_HASH = "a1c877a2ef8773e2f7e235d8612068d713b1ec505f79170372191311b7cadaf5";

    @Test
    void shouldHashKeysAsOperatorsConfigureThem() {
        assertThat(Sha256.hex("sk-gw-test-alice")).isEqualTo(ALICE_HASH);
    }

    @Test
    void shouldMapAHashedKeyToItsPrincipal() {
        ConfiguredKeys authenticator = new ConfiguredKeys(new AuthProperties(List.of(
                new AuthProperties.KeyEntry(ALICE_HASH.toUpperCase(), null, "alice", "analytics", Set.of("user", "admin"))), false));

        assertThat(authenticator.byHash(Sha256.hex("sk-gw-test-alice"))).hasValueSatisfying(principal -> {
            assertThat(principal.user()).isEqualTo("alice");
            assertThat(principal.team()).isEqualTo("analytics");
            assertThat(principal.isAdmin()).isTrue();
        });
    }

    @Test
    void shouldRejectUnknownKeysAndTheHashItself() {
        ConfiguredKeys authenticator = new ConfiguredKeys(new AuthProperties(List.of(
                new AuthProperties.KeyEntry(ALICE_HASH, null, "alice", "analytics", Set.of("user"))), false));

        assertThat(authenticator.byHash(Sha256.hex("sk-gw-test-bob"))).isEmpty();
        assertThat(authenticator.byHash(Sha256.hex(ALICE_HASH))).isEmpty();
    }

    @Test
    void shouldAcceptPlainKeysOnlyWhenAllowed() {
        List<AuthProperties.KeyEntry> plain = List.of(new AuthProperties.KeyEntry(null, "dev-key", "root", "platform", Set.of("admin")));

        assertThatThrownBy(() -> new ConfiguredKeys(new AuthProperties(plain, false)))
                .hasMessageContaining("gateway.auth.keys[0]").hasMessageContaining("allow-plain-keys")
                .hasMessageNotContaining("dev-key");
        assertThat(new ConfiguredKeys(new AuthProperties(plain, true)).byHash(Sha256.hex("dev-key"))).isPresent();
    }

    @Test
    void shouldRefuseAConfigurationThatIsAmbiguousOrBroken() {
        assertThatThrownBy(() -> authenticator(new AuthProperties.KeyEntry("abc", null, "alice", "analytics", Set.of())))
                .hasMessageContaining("64 hex characters");
        assertThatThrownBy(() -> authenticator(new AuthProperties.KeyEntry(ALICE_HASH, "k", "alice", "analytics", Set.of())))
                .hasMessageContaining("exactly one of");
        assertThatThrownBy(() -> authenticator(new AuthProperties.KeyEntry(ALICE_HASH, null, "alice", " ", Set.of())))
                .hasMessageContaining("'team'");
        assertThatThrownBy(() -> authenticator(
                new AuthProperties.KeyEntry(ALICE_HASH, null, "alice", "analytics", Set.of()),
                new AuthProperties.KeyEntry(ALICE_HASH, null, "mallory", "analytics", Set.of())))
                .hasMessageContaining("gateway.auth.keys[1]").hasMessageContaining("repeats");
    }

    private static ConfiguredKeys authenticator(AuthProperties.KeyEntry... entries) {
        return new ConfiguredKeys(new AuthProperties(List.of(entries), true));
    }
}
