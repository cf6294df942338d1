package com.sandboxgateway.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.function.ServerResponse;

import com.sandboxgateway.audit.AuditLog;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.upstream.UpstreamClient;

import tools.jackson.databind.json.JsonMapper;

/**
 * The review console's routes, in the management server only. Not a {@code @Configuration}: it is imported
 * through {@code ManagementContextConfiguration.imports} and so never picked up by the application's
 * component scan, which would also serve it on the public port; and when the management endpoints share the
 * public port there is no console at all.
 */
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
class ConsoleConfiguration {

    /** Pages never go to a cache or a third party, run no inline script and are never framed. */
    private static final String CONTENT_SECURITY_POLICY =
            "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    @Bean
    RouterFunction<ServerResponse> consoleRoutes(AuditTrail trail, AuditLog auditLog, ApiKeyAuthenticator authenticator,
                                                 UpstreamClient upstream, ConsoleProperties properties, JsonMapper json,
                                                 Clock clock) {
        ConsoleSessions sessions = new ConsoleSessions(properties, clock);
        Reviews reviews = new Reviews(trail, auditLog, json, clock);
        ReviewHandlers pages = new ReviewHandlers(trail, reviews, new ReviewQueue(trail, reviews, properties.queueScanLimit()),
                new ContainerFiles(upstream, json), json);
        LoginHandlers login = new LoginHandlers(authenticator, sessions);
        String css = styleSheet();
        RouterFunction<ServerResponse> guarded = RouterFunctions.route()
                .GET(Layout.BASE, pages::queue)
                .GET(Layout.BASE + "/records/{seq}", pages::record)
                .GET(Layout.BASE + "/records/{seq}/files/{file}", pages::image)
                .POST(Layout.BASE + "/records/{seq}/review", pages::review)
                .GET(Layout.BASE + "/search", pages::search)
                .GET(Layout.BASE + "/verify", pages::verify)
                .POST(Layout.BASE + "/logout", login::logout)
                .filter(new ConsoleAccess(authenticator, sessions))
                .build();
        return RouterFunctions.route()
                .GET(Layout.BASE + "/console.css", request -> ServerResponse.ok()
                        .contentType(new MediaType("text", "css", StandardCharsets.UTF_8)).body(css))
                .GET(Layout.BASE + "/login", login::form)
                .POST(Layout.BASE + "/login", login::login)
                .add(guarded)
                .build();
    }

    /** Set before anything answers, so refusals and error pages carry them too. */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> consoleSecurityHeaders() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
                response.setHeader("X-Content-Type-Options", "nosniff");
                response.setHeader("Referrer-Policy", "no-referrer");
                response.setHeader("Cache-Control", "no-store");
                chain.doFilter(request, response);
            }
        });
        registration.addUrlPatterns(Layout.BASE, Layout.BASE + "/*");
        return registration;
    }

    private static String styleSheet() {
        try {
            return new ClassPathResource("console/console.css").getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("console/console.css is missing from the application", e);
        }
    }
}
