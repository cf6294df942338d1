package com.sandboxgateway.admin;

import java.io.IOException;
import java.io.UncheckedIOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import com.sandboxgateway.state.StateUnavailableException;

import tools.jackson.databind.json.JsonMapper;

/**
 * What an admin endpoint answers when it cannot answer normally, as RFC 9457 Problem Details with a
 * detail that says what to do: a bad parameter is a {@code 400} naming it (Spring's own answer has no
 * body), an object the gateway does not know a {@code 404}, OpenAI refusing what was asked a {@code 502},
 * and shared state (Redis) out of reach a {@code 503} with {@code Retry-After}, logged as one line instead
 * of a stack trace: the outage already shows in the {@code state} health component.
 */
final class AdminProblems implements HandlerExceptionResolver, Ordered {

    private static final Logger log = LoggerFactory.getLogger(AdminProblems.class);
    private static final String RETRY_AFTER_SECONDS = "1";

    private final JsonMapper json;

    AdminProblems(JsonMapper json) {
        this.json = json;
    }

    /** An admin endpoint was asked about an object it does not know; the message names it. */
    static final class NotFound extends RuntimeException {

        NotFound(String message) {
            super(message);
        }
    }

    /** OpenAI did not do what an admin endpoint asked of it; the message says what it answered. */
    static final class UpstreamFailed extends RuntimeException {

        UpstreamFailed(String message) {
            super(message);
        }
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception failure) {
        if (cause(failure, StateUnavailableException.class) instanceof StateUnavailableException unavailable) {
            log.warn("{} {} answered 503: {}", request.getMethod(), request.getRequestURI(), unavailable.getMessage());
            response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
            return write(response, HttpStatus.SERVICE_UNAVAILABLE, "The rate-limit and budget state (Redis) cannot be reached "
                    + "right now: " + unavailable.getMessage() + ". Retry shortly; the 'state' component of /actuator/health "
                    + "shows when it is back.");
        }
        if (cause(failure, InvalidEndpointRequestException.class) instanceof InvalidEndpointRequestException invalid) {
            return write(response, HttpStatus.BAD_REQUEST, invalid.getMessage());
        }
        if (failure instanceof NotFound notFound) {
            return write(response, HttpStatus.NOT_FOUND, notFound.getMessage());
        }
        if (failure instanceof UpstreamFailed upstream) {
            return write(response, HttpStatus.BAD_GATEWAY, upstream.getMessage());
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    private ModelAndView write(HttpServletResponse response, HttpStatus status, String detail) {
        try {
            response.setStatus(status.value());
            response.setContentType("application/problem+json");
            response.getOutputStream().write(json.writeValueAsBytes(ProblemDetail.forStatusAndDetail(status, detail)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ModelAndView();
    }

    private static Throwable cause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return cause;
            }
        }
        return null;
    }
}
