package com.sandboxgateway;

import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import com.sandboxgateway.audit.AuditVerifyCommand;

/** Sandbox Gateway: an OpenAI-compatible proxy that governs every use of Code Interpreter. */
/*
 * Spring's Redis auto-configuration stays off: the gateway opens its own bounded, lazy connections
 * (com.sandboxgateway.state), and only when gateway.state.backend is redis.
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration"})
@ConfigurationPropertiesScan
public class SandboxGatewayApplication {

    /** Runs the gateway, or with {@code audit-verify ...} the offline audit verifier (no server, no database). */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("audit-verify")) {
            System.exit(AuditVerifyCommand.run(List.of(args).subList(1, args.length), System.out));
        }
        SpringApplication.run(SandboxGatewayApplication.class, args);
    }
}
