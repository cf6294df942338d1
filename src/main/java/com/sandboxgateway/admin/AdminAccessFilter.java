package com.sandboxgateway.admin;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.InvalidCredentialsException;
import com.sandboxgateway.auth.Principal;

import tools.jackson.databind.json.JsonMapper;

/**
 * Guards the actuator: health and the Prometheus scrape stay open, everything else needs a gateway
 * key (or an identity provider's token) with the {@code admin} role. No, unknown or invalid credentials:
 * 401 saying why; a caller without the role: 403; both as RFC 9457 Problem Details. An admin's request
 * carries an {@link AdminPrincipal} as its user principal, so endpoints can record who acted.
 */
final class AdminAccessFilter extends OncePerRequestFilter {

    private final ApiKeyAuthenticator authenticator;
    private final JsonMapper json;
    private final String basePath;

    AdminAccessFilter(ApiKeyAuthenticator authenticator, JsonMapper json, String basePath) {
        this.authenticator = authenticator;
        this.json = json;
        this.basePath = basePath;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI();
        if (!path.startsWith(basePath) || isOpen(path.substring(basePath.length()))) {
            chain.doFilter(request, response);
            return;
        }
        Principal principal;
        try {
            principal = authenticator.require(request.getHeader("Authorization"));
        } catch (InvalidCredentialsException e) {
            response.setHeader("WWW-Authenticate", "Bearer");
            problem(response, HttpStatus.UNAUTHORIZED,
                    e.getMessage() + " The admin endpoints need a key or token with the admin role.");
            return;
        }
        if (!principal.isAdmin()) {
            problem(response, HttpStatus.FORBIDDEN, "The key of " + principal.user()
                    + " lacks the admin role that the admin endpoints require.");
            return;
        }
        AdminPrincipal admin = new AdminPrincipal(principal.user(), principal.team());
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public java.security.Principal getUserPrincipal() {
                return admin;
            }
        }, response);
    }

    /** Probes and the metrics scrape must work without credentials. */
    private static boolean isOpen(String endpointPath) {
        return endpointPath.equals("/health") || endpointPath.startsWith("/health/") || endpointPath.equals("/prometheus");
    }

    private void problem(HttpServletResponse response, HttpStatus status, String detail) throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        response.setStatus(status.value());
        response.setContentType("application/problem+json");
        response.getOutputStream().write(json.writeValueAsBytes(problem));
    }
}
