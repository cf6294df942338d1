package com.sandboxgateway.console;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

import jakarta.servlet.http.Cookie;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.Principal;

/**
 * Lets only admins into the console, as the admin endpoints do: an {@code Authorization: Bearer} header
 * with a key that has the {@code admin} role (turned into a principal by the same authenticator), or the
 * cookie of a console session started with such a key. Unknown key: 401; a key without the role: 403; no
 * credentials: the login form. A form sent with the session cookie must carry the session's anti-forgery
 * token, so another site cannot make a reviewer's browser record a review.
 */
final class ConsoleAccess implements HandlerFilterFunction<ServerResponse, ServerResponse> {

    static final String COOKIE = "gateway_console";
    static final String CSRF_FIELD = "csrf";

    private final ApiKeyAuthenticator authenticator;
    private final ConsoleSessions sessions;

    ConsoleAccess(ApiKeyAuthenticator authenticator, ConsoleSessions sessions) {
        this.authenticator = authenticator;
        this.sessions = sessions;
    }

    @Override
    public ServerResponse filter(ServerRequest request, HandlerFunction<ServerResponse> next) throws Exception {
        String authorization = request.headers().firstHeader("Authorization");
        if (authorization != null) {
            Optional<Principal> principal = authenticator.authenticate(authorization);
            if (principal.isEmpty()) {
                return ServerResponse.status(HttpStatus.UNAUTHORIZED).header("WWW-Authenticate", "Bearer")
                        .contentType(Layout.HTML).body(Layout.refusal("Unknown key",
                                "Send 'Authorization: Bearer <gateway key>' with a key that has the admin role, or log in."));
            }
            if (!principal.get().isAdmin()) {
                return notAdmin(principal.get());
            }
            return pass(new ConsoleUser(principal.get(), null), request, next);
        }
        Optional<ConsoleUser> user = sessions.resume(sessionToken(request));
        if (user.isEmpty()) {
            return HttpMethod.GET.equals(request.method())
                    ? ServerResponse.seeOther(URI.create(Layout.BASE + "/login")).build()
                    : ServerResponse.status(HttpStatus.UNAUTHORIZED).contentType(Layout.HTML)
                            .body(Layout.refusal("Session ended", "Your console session ended. Log in again and repeat the action."));
        }
        if (!HttpMethod.GET.equals(request.method()) && !sameToken(request.param(CSRF_FIELD).orElse(""), user.get().csrfToken())) {
            return ServerResponse.status(HttpStatus.FORBIDDEN).contentType(Layout.HTML)
                    .body(Layout.refusal("Form not accepted", "The form did not come from this console session. Reload the page and send it again."));
        }
        return pass(user.get(), request, next);
    }

    static ServerResponse notAdmin(Principal principal) {
        return ServerResponse.status(HttpStatus.FORBIDDEN).contentType(Layout.HTML).body(Layout.refusal("Not an admin",
                "The key of " + principal.user() + " lacks the admin role that the review console requires."));
    }

    static String sessionToken(ServerRequest request) {
        return Optional.ofNullable(request.cookies().getFirst(COOKIE)).map(Cookie::getValue).orElse(null);
    }

    private static ServerResponse pass(ConsoleUser user, ServerRequest request, HandlerFunction<ServerResponse> next)
            throws Exception {
        user.attachTo(request);
        return next.handle(request);
    }

    private static boolean sameToken(String sent, String expected) {
        return MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }
}
