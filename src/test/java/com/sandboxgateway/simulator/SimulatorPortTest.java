package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SimulatorPortTest {

    @Test
    void shouldPreferTheFirstArgumentOverTheEnvironment() {
        assertThat(SimulatorPort.resolve(new String[] {"9001"}, "9002")).isEqualTo(9001);
    }

    @Test
    void shouldFallBackToTheEnvironmentVariable() {
        assertThat(SimulatorPort.resolve(new String[0], " 9002 ")).isEqualTo(9002);
    }

    @Test
    void shouldDefaultTo8089() {
        assertThat(SimulatorPort.resolve(new String[0], null)).isEqualTo(8089);
        assertThat(SimulatorPort.resolve(new String[0], "")).isEqualTo(8089);
    }

    @Test
    void shouldNameTheSourceOfABadPort() {
        assertThatThrownBy(() -> SimulatorPort.resolve(new String[0], "http"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SIMULATOR_PORT")
                .hasMessageContaining("'http'");
        assertThatThrownBy(() -> SimulatorPort.resolve(new String[] {"-1"}, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
