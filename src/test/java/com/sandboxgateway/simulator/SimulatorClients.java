package com.sandboxgateway.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.ObjectMappers;
import com.openai.core.http.HttpResponse;

/** The official OpenAI SDK, pointed at a running simulator, and ways to read what it returns raw. */
final class SimulatorClients {

    private SimulatorClients() {
    }

    static OpenAIClient sdkFor(OfflineSimulator simulator) {
        return OpenAIOkHttpClient.builder()
                .baseUrl(simulator.baseUrl() + "/v1")
                .apiKey("sk-test")
                // A retry would hide a wrong status code behind a second attempt.
                .maxRetries(0)
                .build();
    }

    /** Bodies the SDK does not parse (deletes that return void, downloads). */
    static JsonNode jsonBody(HttpResponse response) {
        try {
            return ObjectMappers.jsonMapper().readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(HttpResponse response) {
        try (response) {
            return response.body().readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
