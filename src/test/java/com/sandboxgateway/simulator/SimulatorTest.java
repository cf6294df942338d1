package com.sandboxgateway.simulator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import com.openai.client.OpenAIClient;

/** Base of the simulator tests: one simulator per class, and the official SDK pointed at it. */
abstract class SimulatorTest {

    static OfflineSimulator simulator;
    static OpenAIClient openAi;

    @BeforeAll
    static void startSimulator() {
        simulator = OfflineSimulator.start(0);
        openAi = SimulatorClients.sdkFor(simulator);
    }

    @AfterAll
    static void stopSimulator() {
        openAi.close();
        simulator.close();
    }
}
