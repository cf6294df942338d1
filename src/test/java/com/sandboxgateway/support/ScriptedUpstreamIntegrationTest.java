package com.sandboxgateway.support;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Base of the tests that run the whole gateway in front of a {@link ScriptedUpstream}. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
public abstract class ScriptedUpstreamIntegrationTest {

    public static final String ALICE_KEY = GatewayIntegrationTest.ALICE_KEY;

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void upstream(DynamicPropertyRegistry registry) {
        registry.add("gateway.upstream.base-url", ScriptedUpstream::baseUrl);
        registry.add("gateway.policy.org.files.max-upload-size", () -> "2GB");
    }
}
