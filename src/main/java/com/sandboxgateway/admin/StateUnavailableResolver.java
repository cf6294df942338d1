package com.sandboxgateway.admin;

import java.io.IOException;
import java.io.UncheckedIOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import com.sandboxgateway.state.StateUnavailableException;

import tools.jackson.databind.json.JsonMapper;

/**
 * An admin endpoint that needs the shared state while Redis is unreachable answers {@code 503} Problem
 * Details with {@code Retry-After}, and the log gets one line instead of a stack trace: the outage is
 * already visible in the {@code state} health component.
 */
final class StateUnavailableResolver implements HandlerExceptionResolver, Ordered {

    private static final Logger log = LoggerFactory.getLogger(StateUnavailableResolver.class);
    private static final String RETRY_AFTER_SECONDS = "1";

    private final JsonMapper json;

    StateUnavailableResolver(JsonMapper json) {
        this.json = json;
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception failure) {
        StateUnavailableException unavailable = cause(failure);
        if (unavailable == null) {
            return null;
        }
        log.warn("{} {} answered 503: {}", request.getMethod(), request.getRequestURI(), unavailable.getMessage());
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "The rate-limit and budget state (Redis) cannot be reached right now: " + unavailable.getMessage()
                        + ". Retry shortly; the 'state' component of /actuator/health shows when it is back.");
        try {
            response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
            response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
            response.setContentType("application/problem+json");
            response.getOutputStream().write(json.writeValueAsBytes(problem));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ModelAndView();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    private static StateUnavailableException cause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StateUnavailableException unavailable) {
                return unavailable;
            }
        }
        return null;
    }
}
