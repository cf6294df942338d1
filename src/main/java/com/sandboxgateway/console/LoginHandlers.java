package com.sandboxgateway.console;

import java.net.URI;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.Principal;

/**
 * The login form (the key travels in the body of a POST, never in a URL), and logout. A key with the
 * admin role starts a {@link ConsoleSessions session}; the browser keeps only its cookie.
 */
final class LoginHandlers {

    private final ApiKeyAuthenticator authenticator;
    private final ConsoleSessions sessions;

    LoginHandlers(ApiKeyAuthenticator authenticator, ConsoleSessions sessions) {
        this.authenticator = authenticator;
        this.sessions = sessions;
    }

    ServerResponse form(ServerRequest request) {
        return ReviewHandlers.html(HttpStatus.OK, loginPage(null));
    }

    ServerResponse login(ServerRequest request) {
        String key = request.param("key").map(String::strip).orElse("");
        Optional<Principal> principal = key.isEmpty() ? Optional.empty() : authenticator.authenticate("Bearer " + key);
        if (principal.isEmpty()) {
            return ReviewHandlers.html(HttpStatus.UNAUTHORIZED, loginPage("That key is not a gateway key. Paste the whole key of an admin."));
        }
        if (!principal.get().isAdmin()) {
            return ConsoleAccess.notAdmin(principal.get());
        }
        ResponseCookie cookie = ResponseCookie.from(ConsoleAccess.COOKIE, sessions.start(principal.get())).path(Layout.BASE)
                .httpOnly(true).sameSite("Strict").secure(request.servletRequest().isSecure()).build();
        return ServerResponse.seeOther(URI.create(Layout.BASE)).header(HttpHeaders.SET_COOKIE, cookie.toString()).build();
    }

    ServerResponse logout(ServerRequest request) {
        sessions.end(ConsoleAccess.sessionToken(request));
        ResponseCookie cleared = ResponseCookie.from(ConsoleAccess.COOKIE, "").path(Layout.BASE).httpOnly(true).sameSite("Strict")
                .maxAge(0).build();
        return ServerResponse.seeOther(URI.create(Layout.BASE + "/login")).header(HttpHeaders.SET_COOKIE, cleared.toString()).build();
    }

    private static String loginPage(String problem) {
        return Layout.bare("Log in to the review console", (problem == null ? "" : "<p role=\"alert\" class=\"problem\">"
                + Html.esc(problem) + "</p>\n") + """
                <form method="post" action="%s/login" class="login">
                <div><label for="key">Gateway key with the admin role</label>
                <input id="key" name="key" type="password" autocomplete="off" required autofocus></div>
                <div><button type="submit" id="log-in">Log in</button></div>
                </form>
                <p>Scripts may send <code>Authorization: Bearer &lt;key&gt;</code> instead.</p>
                """.formatted(Layout.BASE));
    }
}
