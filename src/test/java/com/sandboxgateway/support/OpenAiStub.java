package com.sandboxgateway.support;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * The WireMock server that plays OpenAI for the integration tests: one per test JVM, so every test
 * class shares one Spring context. Tests reset it before each test.
 */
public final class OpenAiStub {

    private static final WireMockServer SERVER = start();

    private OpenAiStub() {
    }

    public static WireMockServer server() {
        return SERVER;
    }

    /** An example payload from OpenAI's contract ({@code src/test/resources/openai-examples}). */
    public static String example(String name) {
        try (InputStream in = OpenAiStub.class.getResourceAsStream("/openai-examples/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no example named " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static WireMockServer start() {
        WireMockServer server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")
                .containerThreads(64));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        return server;
    }
}
