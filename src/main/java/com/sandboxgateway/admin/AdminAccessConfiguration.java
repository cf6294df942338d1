package com.sandboxgateway.admin;

import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

import com.sandboxgateway.auth.ApiKeyAuthenticator;

import tools.jackson.databind.json.JsonMapper;

/**
 * Installs {@link AdminAccessFilter} and {@link AdminProblems} in the management server (port
 * 8081 by default), whichever context serves it.
 */
@ManagementContextConfiguration(ManagementContextType.ANY)
class AdminAccessConfiguration {

    @Bean
    FilterRegistrationBean<AdminAccessFilter> adminAccessFilter(ApiKeyAuthenticator authenticator, JsonMapper json,
                                                                WebEndpointProperties endpoints) {
        FilterRegistrationBean<AdminAccessFilter> registration = new FilterRegistrationBean<>(
                new AdminAccessFilter(authenticator, json, endpoints.getBasePath()));
        registration.setOrder(0);
        return registration;
    }

    @Bean
    AdminProblems adminProblems(JsonMapper json) {
        return new AdminProblems(json);
    }
}
