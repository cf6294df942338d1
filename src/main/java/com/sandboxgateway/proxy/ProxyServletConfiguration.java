package com.sandboxgateway.proxy;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * Serves {@code /v1} with a servlet of its own, beside Spring MVC's dispatcher: {@link ProxyController} takes the raw
 * request and answer, so the dispatcher's handler look-up, argument resolution and request wrappers did nothing for it
 * but cost about 4 % of the gateway's CPU per request (bench/README.md, session 32). The filters still apply, and an
 * exception still reaches the container's error handling.
 */
@Configuration(proxyBeanMethods = false)
class ProxyServletConfiguration {

    /** The route the {@code http.server.requests} meter and the server span name, as Spring MVC named it. */
    private static final String ROUTES = "/v1/**";

    @Bean
    ServletRegistrationBean<HttpServlet> openAiSurface(ProxyController controller) {
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                ServerHttpObservationFilter.findObservationContext(request).ifPresent(context -> context.setPathPattern(ROUTES));
                controller.handle(request, response);
            }
        }, "/v1/*");
        registration.setName("openai");
        registration.setLoadOnStartup(1);
        return registration;
    }
}
