package com.sandboxgateway.policy;

import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one place where the order of the request steps and the response inspectors is declared. */
@Configuration(proxyBeanMethods = false)
class PolicyConfiguration {

    @Bean
    PolicyChain policyChain() {
        return new PolicyChain(List.of(), List.of());
    }
}
