package com.sandboxgateway.proxy;

import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Problem Details instead of Tomcat's HTML page for what the management server's own Tomcat rejects.
 * Listed as a management context configuration and deliberately not annotated, so the component scan
 * of the main context never picks it up: it only runs where the management context is built, and
 * acts only when that context has a server (and a port) of its own.
 */
class ManagementContainerErrorsConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemDetailsContainerErrors(Environment environment) {
        return factory -> {
            if (ManagementPortType.get(environment) == ManagementPortType.DIFFERENT) {
                ContainerErrorsConfiguration.errorReport(factory, ProblemDetailsErrorReport.class);
            }
        };
    }
}
