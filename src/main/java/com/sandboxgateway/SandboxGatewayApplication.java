package com.sandboxgateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Sandbox Gateway: an OpenAI-compatible proxy that governs every use of Code Interpreter. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SandboxGatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(SandboxGatewayApplication.class, args);
    }
}
